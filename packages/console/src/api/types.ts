/**
 * Shapes read off the generated schema, so pages name a route and get its request and response
 * types; nothing here describes a field by hand.
 */
import type { paths } from './schema.d.ts';

type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;

/** The JSON a route's GET answers with 200. */
export type GetResult<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } } ? Json<R> : never;

/** Every route whose GET answers with a page (`{data, meta: {total_count}}`). */
export type ListPath = {
  [P in keyof paths]: GetResult<P> extends { data: unknown[]; meta: { total_count: number } } ? P : never;
}[keyof paths];

export type ListItem<P extends ListPath> = GetResult<P> extends { data: (infer T)[] } ? T : never;

/** Every order a list route takes, as its `ordering` parameter lists them (`name`, `-name`, …). */
export type Ordering<P extends ListPath> = paths[P] extends { get: { parameters: { query?: { ordering?: infer O } } } }
  ? Extract<NonNullable<O>, string>
  : never;

/** The fields a list route may be ordered by, read off its `ordering` parameter (`name` of `name | -name`). */
export type SortField<P extends ListPath> = paths[P] extends { get: { parameters: { query?: { ordering?: infer O } } } }
  ? Extract<Exclude<NonNullable<O>, `-${string}`>, string>
  : never;
export type PageMeta = { page: number; page_size: number; total_count: number };

/** The JSON body a route's method takes. */
export type BodyOf<P extends keyof paths, M extends 'post' | 'put' | 'patch'> = paths[P] extends {
  [K in M]: { requestBody?: infer B };
}
  ? Json<NonNullable<B>>
  : never;

export type User = ListItem<'/api/v2/users'>;
export type Group = ListItem<'/api/v2/groups'>;
export type ContentItem = ListItem<'/api/v2/content-items'>;
export type ContentType = ContentItem['content_type'];
export type Assignment = ListItem<'/api/v2/assignments'>;
export type Event = ListItem<'/api/v2/events'>;
export type EventSeries = ListItem<'/api/v2/event-series'>;
export type Enrollment = ListItem<'/api/v2/enrollments'>;
export type SavedReport = ListItem<'/api/v2/saved-reports'>;
export type ApiToken = ListItem<'/api/v2/api-tokens'>;
export type Webhook = ListItem<'/public_api/v2/webhooks'>;
export type Me = GetResult<'/api/v2/me'>;
export type Scope = NonNullable<Me['token']>['scopes'][number];
export type BulkJob = GetResult<'/api/v2/users/bulk/{id}'>;
export type BulkItem = ListItem<'/api/v2/users/bulk/{id}/items'>;
export type Delivery = GetResult<'/public_api/v2/webhooks/{id}/deliveries'>['data'][number];
