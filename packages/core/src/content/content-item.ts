/**
 * Content items (docs/content.md): ten content types sharing one summary shape, each with a few
 * type-specific fields. Events and event series are content items too; their own fields and
 * endpoints belong to the events area, which extends what is declared here.
 */
import { z } from 'zod';
import type { ListSpec } from '../shared/list-query.ts';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { dateField, descriptionField, MAX_TAG_LENGTH, nameField, publicIdField, tagField, urlField } from '../shared/schema.ts';
import { contentTypes, type ContentType } from './content-types.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

export { contentTypes, type ContentType };
export const contentTypeSchema = z.enum(contentTypes);

export const mediaStatuses = ['none', 'processing', 'ready', 'errored'] as const;
export type ContentMediaStatus = (typeof mediaStatuses)[number];

/** Limits of one write [spec-gap]; generous for real catalogues, small enough to keep one request cheap. */
export const MAX_TAGS_PER_WRITE = 100;
export const MAX_ACCESS_GROUPS = 100;
export const MAX_CONTAINER_ITEMS = 500;
export const MAX_DURATION_MINUTES = 1_000_000;

const namedRefSchema = z.object({ public_id: z.string(), name: z.string() });

/** The cross-type summary: what `/content-items/` returns and what `content_item.*` events carry. */
export const contentSummarySchema = z
  .object({
    public_id: z.string(),
    name: listed(z.string(), { sort: true, search: true }),
    content_type: listed(contentTypeSchema, { filter: 'multiple', sort: true }),
    description: z.string(),
    is_archived: listed(z.boolean(), { filter: true }),
    is_hidden: listed(z.boolean(), { filter: true }),
    is_completable: z.boolean(),
    is_self_assignable: z.boolean(),
    duration_minutes: listed(z.number().int(), { sort: true }),
    /** null until someone rates the item */
    avg_feedback_rating: z.number().nullable(),
    total_assignments: listed(z.number().int(), { sort: true }),
    completed_assignments_count: z.number().int(),
    created: listed(z.string(), { range: 'datetime', sort: true }),
    modified: listed(z.string(), { range: 'datetime', sort: true }),
    groups: z.array(namedRefSchema),
    tags: z.array(z.string()),
    channel: listed(namedRefSchema.nullable(), { filter: true }),
  })
  .register(apiSchemaNames, { id: 'ContentItem' });
export type ContentSummary = z.infer<typeof contentSummarySchema>;

/** A content item referenced from another one (a track's items). */
export const contentRefSchema = z.object({ public_id: z.string(), name: z.string(), content_type: contentTypeSchema });
export type ContentRef = z.infer<typeof contentRefSchema>;

/** Every type-specific field as read; each type's view picks its own (`typeSpecificFields`). */
export const contentExtrasSchema = z.object({
  url: z.string().nullable(),
  media_asset_id: z.string().nullable(),
  media_status: z.enum(mediaStatuses),
  media_duration: z.number().nullable(),
  items: z.array(contentRefSchema),
  starts_on: z.string().nullable(),
  ends_on: z.string().nullable(),
});
export type ContentExtras = z.infer<typeof contentExtrasSchema>;
type ExtraField = keyof ContentExtras;

/** Literal per type, so each type's write input is typed with exactly its own fields. */
const extraFieldsByType = {
  article: [],
  video: ['media_asset_id', 'media_status', 'media_duration'],
  course: [],
  guide: [],
  event: [],
  event_type: [],
  link: ['url'],
  track: ['items'],
  scheduled_track: ['items', 'starts_on', 'ends_on'],
  collection: ['items'],
} as const satisfies Readonly<Record<ContentType, readonly ExtraField[]>>;
export const typeSpecificFields: Readonly<Record<ContentType, readonly ExtraField[]>> = extraFieldsByType;

export { containerTypes, isContainerType } from './content-types.ts';

/** The GET shape of each type's own collection and the payload of its `<type>.*` events. */
function typeViewSchema(type: ContentType): z.ZodObject {
  const extras = contentExtrasSchema.shape;
  return contentSummarySchema
    .extend(Object.fromEntries(typeSpecificFields[type].map((field) => [field, extras[field]])))
    .register(apiSchemaNames, { id: pascalCase(type) });
}

/** `scheduled_track` → `ScheduledTrack`: a content type's name in the API's schema names */
const pascalCase = (snake: string) => snake.replace(/(^|_)([a-z])/g, (_match, _start, letter: string) => letter.toUpperCase());
export const contentTypeViewSchemas = Object.fromEntries(contentTypes.map((type) => [type, typeViewSchema(type)])) as Record<
  ContentType,
  z.ZodObject
>;
export type ContentTypeView = ContentSummary & Partial<ContentExtras>;

/** A stored content item: both views' facts plus the internal key other areas join on. */
export interface ContentRecord {
  id: number;
  contentType: ContentType;
  summary: ContentSummary;
  /** every type-specific field; `items` is empty for types that are not containers */
  extras: ContentExtras;
}

export const summaryOf = (record: ContentRecord): ContentSummary => record.summary;

export function typeViewOf(record: ContentRecord): ContentTypeView {
  const view: ContentTypeView = { ...record.summary };
  for (const field of typeSpecificFields[record.contentType]) Object.assign(view, { [field]: record.extras[field] });
  return view;
}

// ---- writes ----------------------------------------------------------------------------------

export const tagNamesField = () => z.array(tagField()).max(MAX_TAGS_PER_WRITE);

/** Fields every content type accepts on create and update (docs/content.md). */
const sharedWritableFields = {
  name: nameField(),
  description: descriptionField(),
  tags: tagNamesField(),
  channel_id: publicIdField().nullable(),
  groups: z.array(publicIdField()).max(MAX_ACCESS_GROUPS),
  is_hidden: z.boolean(),
  is_self_assignable: z.boolean(),
  is_completable: z.boolean(),
  /** minutes; read back as `duration_minutes` */
  duration: z.number().int().min(0).max(MAX_DURATION_MINUTES),
};

/** Type-specific fields a client may write. A video's media status and duration are set by media processing. */
const typeWritableFields = {
  url: urlField(),
  media_asset_id: z.string().trim().min(1).max(255).nullable(),
  // the service refuses an id named twice (content-rules.ts)
  items: z.array(publicIdField()).max(MAX_CONTAINER_ITEMS).meta({ uniqueItems: true }),
  starts_on: dateField().nullable(),
  ends_on: dateField().nullable(),
};
type TypeWritableField = keyof typeof typeWritableFields;
const isTypeWritable = (field: string): field is TypeWritableField => field in typeWritableFields;

/** A type writes the fields it reads, but for those only the platform sets. */
const writableFields = (type: ContentType): TypeWritableField[] => typeSpecificFields[type].filter(isTypeWritable);

const requiredOnCreateByType = { link: ['url'] } as const satisfies Readonly<Partial<Record<ContentType, readonly TypeWritableField[]>>>;
const requiredOnCreate: Readonly<Partial<Record<ContentType, readonly TypeWritableField[]>>> = requiredOnCreateByType;

/** A validated create or update body of any type: only the fields its type's schema allowed are present. */
export type ContentWrite = Partial<z.output<ReturnType<typeof z.strictObject<typeof sharedWritableFields & typeof typeWritableFields>>>>;

function writeSchema(type: ContentType, mode: 'create' | 'update'): z.ZodType<ContentWrite> {
  const required: readonly string[] = mode === 'create' ? ['name', ...(requiredOnCreate[type] ?? [])] : [];
  const typeFields = writableFields(type).map((field) => [field, typeWritableFields[field]] as const);
  const fields = [...Object.entries(sharedWritableFields), ...typeFields].map(
    ([field, schema]) => [field, required.includes(field) ? schema : schema.optional()] as const,
  );
  const name = `${pascalCase(type)}${mode === 'create' ? 'Create' : 'Update'}`;
  return z.strictObject(Object.fromEntries(fields)).register(apiSchemaNames, { id: name }) as z.ZodType<ContentWrite>;
}

/**
 * The input types of the schemas writeSchema builds, which zod cannot infer from fields chosen at
 * run time: the same field declarations, picked by the same tables (`extraFieldsByType`,
 * `requiredOnCreateByType`), so `content.create(ctx, 'article', { url })` is a compile error.
 */
type WritableInputs = { [K in keyof typeof sharedWritableFields]: z.input<(typeof sharedWritableFields)[K]> } & {
  [K in TypeWritableField]: z.input<(typeof typeWritableFields)[K]>;
};
type WritableOf<T extends ContentType> =
  keyof typeof sharedWritableFields | Extract<(typeof extraFieldsByType)[T][number], TypeWritableField>;
type RequiredOf<T extends ContentType> =
  'name' | (T extends keyof typeof requiredOnCreateByType ? (typeof requiredOnCreateByType)[T][number] : never);
type Flat<T> = { [K in keyof T]: T[K] };

/** A create body of content type `T`: its writable fields, `name` (and a link's `url`) required. */
export type CreateContentInput<T extends ContentType = ContentType> = T extends ContentType
  ? Flat<Pick<WritableInputs, RequiredOf<T>> & Partial<Pick<WritableInputs, Exclude<WritableOf<T>, RequiredOf<T>>>>>
  : never;
/** A PATCH body of content type `T`: any of its writable fields. */
export type UpdateContentInput<T extends ContentType = ContentType> = T extends ContentType
  ? Flat<Partial<Pick<WritableInputs, WritableOf<T>>>>
  : never;

export const createContentInputs = Object.fromEntries(contentTypes.map((type) => [type, writeSchema(type, 'create')])) as {
  [T in ContentType]: z.ZodType<ContentWrite, CreateContentInput<T>>;
};
export const updateContentInputs = Object.fromEntries(contentTypes.map((type) => [type, writeSchema(type, 'update')])) as {
  [T in ContentType]: z.ZodType<ContentWrite, UpdateContentInput<T>>;
};

/** `PATCH /content-items/<id>/`: the shared fields, whatever the type [ext beyond name, is_hidden, groups]. */
export const updateContentItemInput = z.strictObject(sharedWritableFields).partial().register(apiSchemaNames, { id: 'ContentItemUpdate' });

export const tagsInput = z.strictObject({ tags: tagNamesField().min(1) }).register(apiSchemaNames, { id: 'Tags' });
export const replaceTagsInput = z.strictObject({ tags: tagNamesField() }).register(apiSchemaNames, { id: 'TagsReplace' });

export const tagOperations = ['add', 'remove', 'replace'] as const;
export type TagOperation = (typeof tagOperations)[number];

// ---- lists -----------------------------------------------------------------------------------

/** `GET /content-items/`: `group` is an access group, `tag`/`tag_all` name the item's tags. */
export const contentListSpec = listSpecOf(contentSummarySchema, {
  filters: {
    group: { kind: 'uuid' },
    tag: { kind: 'string', maxLength: MAX_TAG_LENGTH },
    // bounded like a write's tag list: each name is one SQL condition, and the database parses only so many
    tag_all: { kind: 'strings', maxValues: MAX_TAGS_PER_WRITE, maxLength: MAX_TAG_LENGTH },
  },
  defaultOrdering: ['created'],
});

/** `GET /articles/`, `/videos/`, …: the same parameters, the type being fixed by the path. */
export const typedContentListSpec: ListSpec = {
  ...contentListSpec,
  filters: Object.fromEntries(Object.entries(contentListSpec.filters).filter(([name]) => name !== 'content_type')),
};
