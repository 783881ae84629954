import { contentTypeOfCollection, type ContentCollection, type Lectern, type TagOperation } from '@lectern/core';
import { batchReply } from '../error-response.ts';
import { noContent, ok, withEtag } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

/** What every type's own collection does, for the type the collection holds (core's table). */
function typedHandlers(lectern: Lectern, collection: ContentCollection) {
  const content = lectern.content;
  const type = contentTypeOfCollection[collection];
  return {
    list: (async (rc) => ok(await content.listOfType(rc.ctx, type, rc.query))) satisfies RouteHandler,
    create: (async (rc) => withEtag(await content.create(rc.ctx, type, rc.body()), 201)) satisfies RouteHandler,
    get: (async (rc) => withEtag(await content.getOfType(rc.ctx, type, rc.params.id!))) satisfies RouteHandler,
    update: (async (rc) =>
      withEtag(await content.updateOfType(rc.ctx, type, rc.params.id!, rc.body(), rc.preconditions))) satisfies RouteHandler,
  };
}

export function contentRoutes(routes: RouteTable, lectern: Lectern): void {
  const content = lectern.content;
  const bulkTags =
    (operation: TagOperation): RouteHandler =>
    async (rc) =>
      batchReply(await content.bulkTags(rc.ctx, operation, rc.body()), rc.ctx.requestId);
  const changeTags =
    (operation: TagOperation): RouteHandler =>
    async (rc) =>
      ok(await content.changeTags(rc.ctx, rc.params.id!, operation, rc.body()));

  routes
    .post('/api/v2/content-items/bulk/archive', async (rc) =>
      batchReply(await content.bulkSetArchived(rc.ctx, true, rc.body()), rc.ctx.requestId),
    )
    .post('/api/v2/content-items/bulk/unarchive', async (rc) =>
      batchReply(await content.bulkSetArchived(rc.ctx, false, rc.body()), rc.ctx.requestId),
    )
    .post('/api/v2/content-items/bulk/tags', bulkTags('add'))
    .delete('/api/v2/content-items/bulk/tags', bulkTags('remove'))
    .put('/api/v2/content-items/bulk/tags', bulkTags('replace'))
    .get('/api/v2/content-items', async (rc) => ok(await content.list(rc.ctx, rc.query)))
    .get('/api/v2/content-items/:id', async (rc) => withEtag(await content.get(rc.ctx, rc.params.id!)))
    .patch('/api/v2/content-items/:id', async (rc) => withEtag(await content.update(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)))
    .delete('/api/v2/content-items/:id', async (rc) => {
      await content.delete(rc.ctx, rc.params.id!, rc.preconditions);
      return noContent();
    })
    .get('/api/v2/content-items/:id/tags', async (rc) => ok(await content.tags(rc.ctx, rc.params.id!)))
    .post('/api/v2/content-items/:id/tags', changeTags('add'))
    .delete('/api/v2/content-items/:id/tags', changeTags('remove'))
    .put('/api/v2/content-items/:id/tags', changeTags('replace'))
    .post('/api/v2/content-items/:id/media-status', async (rc) => ok(await lectern.media.reportStatus(rc.ctx, rc.params.id!, rc.body())));

  const articles = typedHandlers(lectern, 'articles');
  const videos = typedHandlers(lectern, 'videos');
  const courses = typedHandlers(lectern, 'courses');
  const guides = typedHandlers(lectern, 'guides');
  const links = typedHandlers(lectern, 'links');
  const tracks = typedHandlers(lectern, 'tracks');
  const scheduledTracks = typedHandlers(lectern, 'scheduled-tracks');
  const collections = typedHandlers(lectern, 'collections');
  routes
    .get('/api/v2/articles', articles.list)
    .post('/api/v2/articles', articles.create)
    .get('/api/v2/articles/:id', articles.get)
    .patch('/api/v2/articles/:id', articles.update)
    .get('/api/v2/videos', videos.list)
    .post('/api/v2/videos', videos.create)
    .get('/api/v2/videos/:id', videos.get)
    .patch('/api/v2/videos/:id', videos.update)
    .get('/api/v2/courses', courses.list)
    .post('/api/v2/courses', courses.create)
    .get('/api/v2/courses/:id', courses.get)
    .patch('/api/v2/courses/:id', courses.update)
    .get('/api/v2/guides', guides.list)
    .post('/api/v2/guides', guides.create)
    .get('/api/v2/guides/:id', guides.get)
    .patch('/api/v2/guides/:id', guides.update)
    .get('/api/v2/links', links.list)
    .post('/api/v2/links', links.create)
    .get('/api/v2/links/:id', links.get)
    .patch('/api/v2/links/:id', links.update)
    .get('/api/v2/tracks', tracks.list)
    .post('/api/v2/tracks', tracks.create)
    .get('/api/v2/tracks/:id', tracks.get)
    .patch('/api/v2/tracks/:id', tracks.update)
    .get('/api/v2/scheduled-tracks', scheduledTracks.list)
    .post('/api/v2/scheduled-tracks', scheduledTracks.create)
    .get('/api/v2/scheduled-tracks/:id', scheduledTracks.get)
    .patch('/api/v2/scheduled-tracks/:id', scheduledTracks.update)
    .get('/api/v2/collections', collections.list)
    .post('/api/v2/collections', collections.create)
    .get('/api/v2/collections/:id', collections.get)
    .patch('/api/v2/collections/:id', collections.update);
}

export function channelRoutes(routes: RouteTable, lectern: Lectern): void {
  const channels = lectern.channels;
  routes
    .get('/api/v2/channels', async (rc) => ok(await channels.list(rc.ctx, rc.query)))
    .post('/api/v2/channels', async (rc) => withEtag(await channels.create(rc.ctx, rc.body()), 201))
    .get('/api/v2/channels/:id', async (rc) => withEtag(await channels.get(rc.ctx, rc.params.id!)))
    .patch('/api/v2/channels/:id', async (rc) => withEtag(await channels.update(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)));
}
