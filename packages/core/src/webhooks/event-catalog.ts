/**
 * The subscribable webhook events (spec "Event types", docs/webhooks.md): one catalogue, read by the
 * event-catalog endpoint, by subscription validation (wildcard expansion) and by code that emits.
 */

import {
  contentLifecycleActions,
  contentTypeEventPrefix,
  isMediaContentType,
  mediaEventType,
  type ContentLifecycleAction,
  type MediaContentType,
  type MediaStatus,
} from '../content/content-events.ts';
import { contentTypes, type ContentType } from '../content/content-types.ts';
import { z } from 'zod';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

export interface EventTypeInfo {
  readonly name: string;
  readonly description: string;
}

export interface EventFamilyInfo {
  readonly family: string;
  readonly description: string;
  readonly event_types: readonly EventTypeInfo[];
}

/** How each content type is named in sentences: [with article, plural]. */
const CONTENT_NOUNS: Record<ContentType, readonly [string, string]> = {
  article: ['An article', 'Articles'],
  video: ['A video', 'Videos'],
  course: ['A course', 'Courses'],
  guide: ['A guide', 'Guides'],
  event: ['An event', 'Events'],
  event_type: ['An event series', 'Event series (event types)'],
  link: ['A link', 'Links'],
  track: ['A track', 'Tracks'],
  scheduled_track: ['A scheduled track', 'Scheduled tracks'],
  collection: ['A collection', 'Collections'],
};

const LIFECYCLE_VERBS: Record<ContentLifecycleAction, string> = {
  created: 'was created',
  updated: 'was updated',
  deleted: 'was deleted',
  archived: 'was archived',
  unarchived: 'was unarchived (restored from the archive)',
};

const MEDIA_DESCRIPTIONS: Record<MediaContentType, Record<MediaStatus, string>> = {
  video: {
    ready: 'A hosted video finished processing and is ready to play.',
    errored: 'A hosted video failed to process.',
  },
  event: {
    ready: "An event's recording finished processing and is ready to play.",
    errored: "An event's recording failed to process.",
  },
  event_type: {
    ready: "An event series' recording finished processing and is ready to play.",
    errored: "An event series' recording failed to process.",
  },
};

function lifecycleTypes(prefix: string, subject: string): EventTypeInfo[] {
  return contentLifecycleActions.map((action) => ({
    name: `${prefix}.${action}`,
    description: `${subject} ${LIFECYCLE_VERBS[action]}.`,
  }));
}

function contentFamily(type: ContentType): EventFamilyInfo {
  const [singular, plural] = CONTENT_NOUNS[type];
  const media: EventTypeInfo[] = isMediaContentType(type)
    ? (['ready', 'errored'] as const).map((status) => ({
        name: mediaEventType(type, status),
        description: MEDIA_DESCRIPTIONS[type][status],
      }))
    : [];
  const noun = singular.replace(/^an? /i, '').toLowerCase();
  const mediaNote = media.length > 0 ? ' Also media-processing results, with the media-processing object as payload.' : '';
  return {
    family: contentTypeEventPrefix[type],
    description:
      `${plural}: lifecycle events with the full ${noun} as payload, ` + `fired alongside the matching content_item event.${mediaNote}`,
    event_types: [...lifecycleTypes(contentTypeEventPrefix[type], singular), ...media],
  };
}

/** A family whose events are named `<family>.<action>`, from its actions and what each says, in order. */
function actionFamily(family: string, description: string, actions: Readonly<Record<string, string>>): EventFamilyInfo {
  return {
    family,
    description,
    event_types: Object.entries(actions).map(([action, says]) => ({ name: `${family}.${action}`, description: says })),
  };
}

const families: readonly EventFamilyInfo[] = [
  {
    family: 'content_item',
    description: 'Any content item, whatever its type, with the content-item summary as payload.',
    // The specification words this one as a change to the metadata all content types share.
    event_types: lifecycleTypes('content_item', 'A content item of any type').map((t) =>
      t.name === 'content_item.updated'
        ? { ...t, description: "A content item's shared metadata (the fields of the content-item summary) changed." }
        : t,
    ),
  },
  ...contentTypes.map(contentFamily),
  actionFamily('assignment', 'Assignments of content to users, with the full assignment as payload.', {
    created: 'Content was assigned to a user.',
    updated: "An assignment's metadata (such as its due date) changed.",
    completed: 'An assignment was completed.',
    dropped: 'An assignment was dropped.',
    exempted: 'A user was exempted from an assignment.',
    completion_undone: 'A completed assignment was reopened.',
    exemption_undone: 'An exemption was reverted and the assignment reinstated.',
    deleted: 'An assignment was removed.',
  }),
  actionFamily('enrollment', 'Enrollments in events, with the full enrollment (including user and event references) as payload.', {
    enrolled: 'A user was enrolled in an event, newly or promoted from the waitlist.',
    waitlisted: "A user was added to an event's waitlist.",
    checked_in: 'An enrolled user was checked in.',
    checkin_undone: 'A check-in was reverted.',
    dropped: 'An enrollment was dropped.',
  }),
];

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The body of `GET /webhooks/event-catalog/`; frozen so no caller can alter it for the others. */
export const eventCatalog: { readonly data: readonly EventFamilyInfo[] } = deepFreeze({ data: families });

/** That body as the API document declares it. */
export const eventCatalogSchema = z
  .object({
    data: z.array(
      z.object({
        family: z.string(),
        description: z.string(),
        event_types: z.array(z.object({ name: z.string(), description: z.string() })),
      }),
    ),
  })
  .register(apiSchemaNames, { id: 'EventCatalog' });

/** Every subscribable event type, in catalogue order. */
export const allEventTypes: readonly string[] = Object.freeze(families.flatMap((f) => f.event_types.map((t) => t.name)));

const knownTypes: ReadonlySet<string> = new Set(allEventTypes);
const typesByFamily: ReadonlyMap<string, readonly string[]> = new Map(families.map((f) => [f.family, f.event_types.map((t) => t.name)]));

export const isEventType = (name: string): boolean => knownTypes.has(name);

export type ExpandedEvents = { events: string[] } | { errors: string[] };

/**
 * Turns a subscription's `events` (explicit names and `family.*` wildcards) into the concrete names to
 * store, de-duplicated and in catalogue order, or every problem found so the caller can report them at once.
 */
export function expandEventPatterns(patterns: readonly string[]): ExpandedEvents {
  if (patterns.length === 0) return { errors: ['At least one event type is required.'] };
  const selected = new Set<string>();
  const errors = new Set<string>();
  for (const pattern of patterns) {
    if (pattern === '*') {
      errors.add("The catch-all '*' is not supported; list event types or family wildcards such as 'video.*'.");
    } else if (pattern.endsWith('.*') && !pattern.slice(0, -2).includes('*')) {
      const family = pattern.slice(0, -2);
      const types = typesByFamily.get(family);
      if (types) types.forEach((type) => selected.add(type));
      else errors.add(`Unknown event family '${family}'.`);
    } else if (pattern.includes('*')) {
      errors.add(`Unsupported wildcard '${pattern}'; only whole families ('family.*') can be matched.`);
    } else if (knownTypes.has(pattern)) {
      selected.add(pattern);
    } else {
      errors.add(`Unknown event type '${pattern}'.`);
    }
  }
  if (errors.size > 0) return { errors: [...errors] };
  return { events: allEventTypes.filter((type) => selected.has(type)) };
}
