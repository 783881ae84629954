/**
 * Creating and saving a content item goes to its type's own collection. Each route is named here
 * in full so the compiler checks the body against that route; core's table of collections decides
 * which types have one (the `satisfies` fails if a type is added there and not here).
 */
import { contentTypes, type CollectionContentType } from '@lectern/core/content-types';
import { api, type Outcome } from '../../api/client.ts';
import type { ContentType } from '../../api/types.ts';
import type { Common, Extra } from './fields.tsx';

type Body = Common & Extra;
type Saved = Promise<Outcome<{ public_id: string }>>;

interface CollectionWrites {
  create: (body: Body) => Saved;
  update: (id: string, body: Body) => Saved;
}

const path = (id: string) => ({ params: { path: { id } } });

const CONTENT_WRITES = {
  article: {
    create: (body) => api.POST('/api/v2/articles', { body }),
    update: (id, body) => api.PATCH('/api/v2/articles/{id}', { ...path(id), body }),
  },
  video: {
    create: (body) => api.POST('/api/v2/videos', { body }),
    update: (id, body) => api.PATCH('/api/v2/videos/{id}', { ...path(id), body }),
  },
  course: {
    create: (body) => api.POST('/api/v2/courses', { body }),
    update: (id, body) => api.PATCH('/api/v2/courses/{id}', { ...path(id), body }),
  },
  guide: {
    create: (body) => api.POST('/api/v2/guides', { body }),
    update: (id, body) => api.PATCH('/api/v2/guides/{id}', { ...path(id), body }),
  },
  link: {
    create: (body) => api.POST('/api/v2/links', { body: { ...body, url: body.url ?? '' } }),
    update: (id, body) => api.PATCH('/api/v2/links/{id}', { ...path(id), body }),
  },
  track: {
    create: (body) => api.POST('/api/v2/tracks', { body }),
    update: (id, body) => api.PATCH('/api/v2/tracks/{id}', { ...path(id), body }),
  },
  scheduled_track: {
    create: (body) => api.POST('/api/v2/scheduled-tracks', { body }),
    update: (id, body) => api.PATCH('/api/v2/scheduled-tracks/{id}', { ...path(id), body }),
  },
  collection: {
    create: (body) => api.POST('/api/v2/collections', { body }),
    update: (id, body) => api.PATCH('/api/v2/collections/{id}', { ...path(id), body }),
  },
} satisfies Record<CollectionContentType, CollectionWrites>;

const byType: Partial<Record<ContentType, CollectionWrites>> = CONTENT_WRITES;

/** The types created on the Content page, each through its own collection; events and series live on the Events page. */
export const CREATABLE: readonly ContentType[] = contentTypes.filter((type) => byType[type] !== undefined);

/** A type's create and save, or undefined for a type edited elsewhere (events, series). */
export const writesFor = (type: ContentType): CollectionWrites | undefined => byType[type];
