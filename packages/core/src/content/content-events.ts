/**
 * The names of content's webhook events: each type's event prefix, the lifecycle actions, and which
 * types have hosted media whose processing raises events. Content emits them and the webhook
 * catalogue (webhooks/event-catalog.ts) describes them; they are content's, so webhooks/ reads them
 * from here and content/ needs nothing from webhooks/.
 */
import { contentTypes, type ContentType } from './content-types.ts';

/** `content_type` value → event prefix. They are equal today; emitters go through this so they need not assume it. */
export const contentTypeEventPrefix: Readonly<Record<ContentType, string>> = Object.freeze(
  Object.fromEntries(contentTypes.map((type) => [type, type])) as Record<ContentType, string>,
);

export const contentLifecycleActions = ['created', 'updated', 'deleted', 'archived', 'unarchived'] as const;
export type ContentLifecycleAction = (typeof contentLifecycleActions)[number];

/** Content types whose hosted media (a video, or an event's or series' recording) is processed. */
export const mediaContentTypes = ['video', 'event', 'event_type'] as const satisfies readonly ContentType[];
export type MediaContentType = (typeof mediaContentTypes)[number];
export type MediaStatus = 'ready' | 'errored';

export const isMediaContentType = (type: string): type is MediaContentType => (mediaContentTypes as readonly string[]).includes(type);

/** `video.ready`, `event.recording_errored`, …: video events name the video itself, the others its recording. */
export function mediaEventType(contentType: MediaContentType, status: MediaStatus): string {
  const prefix = contentTypeEventPrefix[contentType];
  return contentType === 'video' ? `${prefix}.${status}` : `${prefix}.recording_${status}`;
}
