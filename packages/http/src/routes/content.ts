import type { ContentType, Lectern, TagOperation } from '@lectern/core';
import { batchReply, noContent, ok, withEtag } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

/** Each content type's own collection (docs/content.md); events and event series get theirs from the events area. */
export const typeCollections: ReadonlyArray<readonly [path: string, type: ContentType]> = [
  ['articles', 'article'],
  ['videos', 'video'],
  ['courses', 'course'],
  ['guides', 'guide'],
  ['links', 'link'],
  ['tracks', 'track'],
  ['scheduled-tracks', 'scheduled_track'],
  ['collections', 'collection'],
];

const tagOperations = [
  ['POST', 'add'],
  ['DELETE', 'remove'],
  ['PUT', 'replace'],
] as const satisfies ReadonlyArray<readonly [string, TagOperation]>;

export function contentRoutes(routes: RouteTable, lectern: Lectern): void {
  const content = lectern.content;
  const on = (method: string, pattern: string, handler: RouteHandler) =>
    method === 'POST' ? routes.post(pattern, handler) : method === 'PUT' ? routes.put(pattern, handler) : routes.delete(pattern, handler);

  // literal bulk paths first, or `/content-items/:id/…` would take `bulk` for an id
  routes
    .post('/api/v2/content-items/bulk/archive', async (rc) =>
      batchReply(await content.bulkSetArchived(rc.ctx, true, rc.body()), rc.ctx.requestId),
    )
    .post('/api/v2/content-items/bulk/unarchive', async (rc) =>
      batchReply(await content.bulkSetArchived(rc.ctx, false, rc.body()), rc.ctx.requestId),
    );
  for (const [method, op] of tagOperations) {
    on(method, '/api/v2/content-items/bulk/tags', async (rc) =>
      batchReply(await content.bulkTags(rc.ctx, op, rc.body()), rc.ctx.requestId),
    );
  }

  routes
    .get('/api/v2/content-items', async (rc) => ok(await content.list(rc.ctx, rc.query)))
    .get('/api/v2/content-items/:id', async (rc) => withEtag(await content.get(rc.ctx, rc.params.id!), rc.header('if-none-match')))
    .patch('/api/v2/content-items/:id', async (rc) =>
      withEtag(await content.update(rc.ctx, rc.params.id!, rc.body(), { ifMatch: rc.header('if-match') }), undefined),
    )
    .delete('/api/v2/content-items/:id', async (rc) => {
      await content.delete(rc.ctx, rc.params.id!, { ifMatch: rc.header('if-match') });
      return noContent();
    })
    .get('/api/v2/content-items/:id/tags', async (rc) => ok(await content.tags(rc.ctx, rc.params.id!)))
    .post('/api/v2/content-items/:id/media-status', async (rc) => ok(await lectern.media.reportStatus(rc.ctx, rc.params.id!, rc.body())));
  for (const [method, op] of tagOperations) {
    on(method, '/api/v2/content-items/:id/tags', async (rc) => ok(await content.changeTags(rc.ctx, rc.params.id!, op, rc.body())));
  }

  for (const [path, type] of typeCollections) {
    routes
      .get(`/api/v2/${path}`, async (rc) => ok(await content.listOfType(rc.ctx, type, rc.query)))
      .post(`/api/v2/${path}`, async (rc) => withEtag(await content.create(rc.ctx, type, rc.body()), undefined, 201))
      .get(`/api/v2/${path}/:id`, async (rc) => withEtag(await content.getOfType(rc.ctx, type, rc.params.id!), rc.header('if-none-match')))
      .patch(`/api/v2/${path}/:id`, async (rc) =>
        withEtag(await content.updateOfType(rc.ctx, type, rc.params.id!, rc.body(), { ifMatch: rc.header('if-match') }), undefined),
      );
  }
}

export function channelRoutes(routes: RouteTable, lectern: Lectern): void {
  const channels = lectern.channels;
  routes
    .get('/api/v2/channels', async (rc) => ok(await channels.list(rc.ctx, rc.query)))
    .post('/api/v2/channels', async (rc) => withEtag(await channels.create(rc.ctx, rc.body()), undefined, 201))
    .get('/api/v2/channels/:id', async (rc) => withEtag(await channels.get(rc.ctx, rc.params.id!), rc.header('if-none-match')))
    .patch('/api/v2/channels/:id', async (rc) =>
      withEtag(await channels.update(rc.ctx, rc.params.id!, rc.body(), { ifMatch: rc.header('if-match') }), undefined),
    );
}
