import {
  batchItemsField,
  channelListSpec,
  channelSchema,
  contentListSpec,
  contentSummarySchema,
  contentTypeOfCollection,
  contentTypeViewSchemas,
  createChannelInput,
  createContentInputs,
  mediaStatusReportInput,
  replaceTagsInput,
  syncBatchResultSchema,
  tagNamesField,
  tagsInput,
  typedContentListSpec,
  updateChannelInput,
  updateContentInputs,
  updateContentItemInput,
  type ContentCollection,
  type Lectern,
  type TagOperation,
} from '@lectern/core';
import { z } from 'zod';
import { batchReply } from '../error-response.ts';
import { anyObject, batch, named, resource } from '../operation-spec.ts';
import { noContent, ok, withEtag } from '../reply.ts';
import { sharedRoute, sharedRouteById, type RouteHandler, type RouteTable } from '../router.ts';

const batchItems = z.strictObject({ items: batchItemsField() });
const batchResult = named('BatchResult', syncBatchResultSchema);
const tagsResult = named('TagList', z.object({ data: z.array(z.string()) }));
const bulkTags = named('BulkTags', batchItems.extend({ tags: tagNamesField().min(1) }));
const bulkTagsReplace = named('BulkTagsReplace', batchItems.extend({ tags: tagNamesField() }));

/** What every type's own collection does and declares, for the type the collection holds (core's table). */
function typedRoutes(lectern: Lectern, collection: ContentCollection) {
  const content = lectern.content;
  const type = contentTypeOfCollection[collection];
  const spec = resource('Content', 'content:read', contentTypeViewSchemas[type]);
  return {
    list: sharedRoute(spec.list(`List ${collection}`, typedContentListSpec), async (rc) =>
      ok(await content.listOfType(rc.ctx, type, rc.query)),
    ),
    create: sharedRoute(spec.write(`Create a ${type}`, createContentInputs[type], 201), async (rc) =>
      withEtag(await content.create(rc.ctx, type, rc.body()), 201),
    ),
    get: sharedRouteById(spec.get(`Get a ${type}`), async (rc) => withEtag(await content.getOfType(rc.ctx, type, rc.params.id))),
    update: sharedRouteById(spec.write(`Update a ${type}`, updateContentInputs[type]), async (rc) =>
      withEtag(await content.updateOfType(rc.ctx, type, rc.params.id, rc.body(), rc.preconditions)),
    ),
  };
}

export function contentRoutes(routes: RouteTable, lectern: Lectern): void {
  const content = lectern.content;
  const spec = resource('Content', 'content:read', contentSummarySchema);
  const bulkTagsOf =
    (operation: TagOperation): RouteHandler<Record<string, string>, Parameters<typeof content.bulkTags>[2]> =>
    async (rc) =>
      batchReply(await content.bulkTags(rc.ctx, operation, rc.body()), rc.ctx.requestId);
  const changeTags =
    (operation: TagOperation): RouteHandler<{ readonly id: string }, Parameters<typeof content.changeTags>[3]> =>
    async (rc) =>
      ok(await content.changeTags(rc.ctx, rc.params.id, operation, rc.body()));

  routes
    .post(
      '/api/v2/content-items/bulk/archive',
      batch(spec.write('Archive items (per-item results)', batchItems, 200, batchResult)),
      async (rc) => batchReply(await content.bulkSetArchived(rc.ctx, true, rc.body()), rc.ctx.requestId),
    )
    .post(
      '/api/v2/content-items/bulk/unarchive',
      batch(spec.write('Unarchive items (per-item results)', batchItems, 200, batchResult)),
      async (rc) => batchReply(await content.bulkSetArchived(rc.ctx, false, rc.body()), rc.ctx.requestId),
    )
    .post('/api/v2/content-items/bulk/tags', batch(spec.write('Add tags to items', bulkTags, 200, batchResult)), bulkTagsOf('add'))
    .delete(
      '/api/v2/content-items/bulk/tags',
      batch(spec.write('Remove tags from items', bulkTags, 200, batchResult)),
      bulkTagsOf('remove'),
    )
    .put(
      '/api/v2/content-items/bulk/tags',
      batch(spec.write('Replace the tags of items', bulkTagsReplace, 200, batchResult)),
      bulkTagsOf('replace'),
    )
    .get('/api/v2/content-items', spec.list('List content items of every type', contentListSpec), async (rc) =>
      ok(await content.list(rc.ctx, rc.query)),
    )
    .get('/api/v2/content-items/:id', spec.get('Get a content item'), async (rc) => withEtag(await content.get(rc.ctx, rc.params.id)))
    .patch('/api/v2/content-items/:id', spec.write('Update the shared fields of an item', updateContentItemInput), async (rc) =>
      withEtag(await content.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    )
    .delete('/api/v2/content-items/:id', spec.write('Delete a content item', undefined, 204, null), async (rc) => {
      await content.delete(rc.ctx, rc.params.id, rc.preconditions);
      return noContent();
    })
    .get('/api/v2/content-items/:id/tags', spec.get('An item’s tags', tagsResult), async (rc) =>
      ok(await content.tags(rc.ctx, rc.params.id)),
    )
    .post('/api/v2/content-items/:id/tags', spec.write('Add tags', tagsInput, 200, tagsResult), changeTags('add'))
    .delete('/api/v2/content-items/:id/tags', spec.write('Remove tags', tagsInput, 200, tagsResult), changeTags('remove'))
    .put('/api/v2/content-items/:id/tags', spec.write('Replace the tags', replaceTagsInput, 200, tagsResult), changeTags('replace'))
    .post(
      '/api/v2/content-items/:id/media-status',
      spec.write('Report media processing status', mediaStatusReportInput, 200, anyObject),
      async (rc) => ok(await lectern.media.reportStatus(rc.ctx, rc.params.id, rc.body())),
    );

  const articles = typedRoutes(lectern, 'articles');
  const videos = typedRoutes(lectern, 'videos');
  const courses = typedRoutes(lectern, 'courses');
  const guides = typedRoutes(lectern, 'guides');
  const links = typedRoutes(lectern, 'links');
  const tracks = typedRoutes(lectern, 'tracks');
  const scheduledTracks = typedRoutes(lectern, 'scheduled-tracks');
  const collections = typedRoutes(lectern, 'collections');
  routes
    .get('/api/v2/articles', ...articles.list)
    .post('/api/v2/articles', ...articles.create)
    .get('/api/v2/articles/:id', ...articles.get)
    .patch('/api/v2/articles/:id', ...articles.update)
    .get('/api/v2/videos', ...videos.list)
    .post('/api/v2/videos', ...videos.create)
    .get('/api/v2/videos/:id', ...videos.get)
    .patch('/api/v2/videos/:id', ...videos.update)
    .get('/api/v2/courses', ...courses.list)
    .post('/api/v2/courses', ...courses.create)
    .get('/api/v2/courses/:id', ...courses.get)
    .patch('/api/v2/courses/:id', ...courses.update)
    .get('/api/v2/guides', ...guides.list)
    .post('/api/v2/guides', ...guides.create)
    .get('/api/v2/guides/:id', ...guides.get)
    .patch('/api/v2/guides/:id', ...guides.update)
    .get('/api/v2/links', ...links.list)
    .post('/api/v2/links', ...links.create)
    .get('/api/v2/links/:id', ...links.get)
    .patch('/api/v2/links/:id', ...links.update)
    .get('/api/v2/tracks', ...tracks.list)
    .post('/api/v2/tracks', ...tracks.create)
    .get('/api/v2/tracks/:id', ...tracks.get)
    .patch('/api/v2/tracks/:id', ...tracks.update)
    .get('/api/v2/scheduled-tracks', ...scheduledTracks.list)
    .post('/api/v2/scheduled-tracks', ...scheduledTracks.create)
    .get('/api/v2/scheduled-tracks/:id', ...scheduledTracks.get)
    .patch('/api/v2/scheduled-tracks/:id', ...scheduledTracks.update)
    .get('/api/v2/collections', ...collections.list)
    .post('/api/v2/collections', ...collections.create)
    .get('/api/v2/collections/:id', ...collections.get)
    .patch('/api/v2/collections/:id', ...collections.update);
}

export function channelRoutes(routes: RouteTable, lectern: Lectern): void {
  const channels = lectern.channels;
  const spec = resource('Channels', 'content:read', channelSchema);
  routes
    .get('/api/v2/channels', spec.list('List channels', channelListSpec), async (rc) => ok(await channels.list(rc.ctx, rc.query)))
    .post('/api/v2/channels', spec.write('Create a channel', createChannelInput, 201), async (rc) =>
      withEtag(await channels.create(rc.ctx, rc.body()), 201),
    )
    .get('/api/v2/channels/:id', spec.get('Get a channel'), async (rc) => withEtag(await channels.get(rc.ctx, rc.params.id)))
    .patch('/api/v2/channels/:id', spec.write('Update a channel', updateChannelInput), async (rc) =>
      withEtag(await channels.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    );
}
