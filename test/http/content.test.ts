import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFieldError, userWithToken, type ApiClient, type ApiResponse, useServer } from '../helpers/server.ts';

const summaryKeys = [
  'public_id',
  'name',
  'content_type',
  'description',
  'is_archived',
  'is_hidden',
  'is_completable',
  'is_self_assignable',
  'duration_minutes',
  'avg_feedback_rating',
  'total_assignments',
  'completed_assignments_count',
  'created',
  'modified',
  'groups',
  'tags',
  'channel',
];

let runCounter = 0;
/** A tag unique to one test, so filters can be checked on a shared server. */
const runTag = () => `run-${process.pid}-${Date.now()}-${runCounter++}`;

describe('content items', () => {
  const server = useServer();
  let api: ApiClient;
  before(async () => {
    api = server.api;
  });

  const create = async (path: string, fields: Record<string, unknown> = {}) => {
    const response = await api.post(`/api/v2/${path}/`, { name: `${path} item`, ...fields });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const ids = async (query: string, client: ApiClient = api, path = 'content-items') => {
    const response = await client.get(`/api/v2/${path}/?${query}&page_size=100`);
    assert.equal(response.status, 200, response.text);
    return response.body.data.map((item: any) => item.public_id);
  };
  const idsOf = (...items: any[]) => items.map((item) => item.public_id);

  describe('type collections', () => {
    it('creates an article with the summary shape and defaults, readable through both paths', async () => {
      const response = await api.post('/api/v2/articles/', { name: '  Reading  ' });
      assert.equal(response.status, 201, response.text);
      assert.ok(response.headers.get('etag'));
      const article = response.body;
      assert.deepEqual(Object.keys(article), summaryKeys);
      assert.deepEqual(
        { ...article, public_id: undefined, created: undefined, modified: undefined },
        {
          public_id: undefined,
          name: 'Reading',
          content_type: 'article',
          description: '',
          is_archived: false,
          is_hidden: false,
          is_completable: true,
          is_self_assignable: true,
          duration_minutes: 0,
          avg_feedback_rating: null,
          total_assignments: 0,
          completed_assignments_count: 0,
          created: undefined,
          modified: undefined,
          groups: [],
          tags: [],
          channel: null,
        },
      );
      assert.equal(article.created, article.modified);
      for (const path of [
        `/api/v2/articles/${article.public_id}/`,
        `/api/v2/content-items/${article.public_id}/`,
        `/api/v2/content-items/${article.public_id}`,
      ]) {
        const read = await api.get(path);
        assert.equal(read.status, 200, path);
        assert.deepEqual(read.body, article);
      }
    });

    it('creates every type with its own fields and lists each type only in its collection', async () => {
      const tag = runTag();
      const article = await create('articles', { tags: [tag] });
      const video = await create('videos', { tags: [tag], media_asset_id: 'asset-1' });
      const course = await create('courses', { tags: [tag] });
      const guide = await create('guides', { tags: [tag] });
      const link = await create('links', { tags: [tag], url: 'https://example.com/read' });
      const track = await create('tracks', { tags: [tag], items: [article.public_id, video.public_id] });
      const scheduled = await create('scheduled-tracks', {
        tags: [tag],
        items: [track.public_id],
        starts_on: '2026-03-01',
        ends_on: '2026-03-31',
      });
      const collection = await create('collections', { tags: [tag], items: [link.public_id, guide.public_id] });

      assert.deepEqual([video.media_asset_id, video.media_status, video.media_duration], ['asset-1', 'processing', null]);
      assert.equal(link.url, 'https://example.com/read');
      assert.deepEqual(track.items, [
        { public_id: article.public_id, name: article.name, content_type: 'article' },
        { public_id: video.public_id, name: video.name, content_type: 'video' },
      ]);
      assert.deepEqual([scheduled.starts_on, scheduled.ends_on, scheduled.items[0].content_type], ['2026-03-01', '2026-03-31', 'track']);
      assert.deepEqual(
        collection.items.map((i: any) => i.public_id),
        idsOf(link, guide),
      );
      assert.deepEqual(Object.keys(article), summaryKeys);
      assert.deepEqual(Object.keys(course), summaryKeys);

      const all = [article, video, course, guide, link, track, scheduled, collection];
      const paths = ['articles', 'videos', 'courses', 'guides', 'links', 'tracks', 'scheduled-tracks', 'collections'];
      for (const [index, path] of paths.entries()) {
        assert.deepEqual(await ids(`tag=${tag}`, api, path), [all[index].public_id], path);
        const listed = (await api.get(`/api/v2/${path}/?tag=${tag}`)).body.data[0];
        assert.deepEqual(listed, all[index], `${path} lists the type's own shape`);
      }
      // the cross-type list carries summaries only
      const summaries = (await api.get(`/api/v2/content-items/?tag=${tag}&page_size=100`)).body.data;
      assert.equal(summaries.length, 8);
      for (const summary of summaries) assert.deepEqual(Object.keys(summary), summaryKeys);
    });

    it('answers 404 for unknown ids, malformed ids and an id of another type', async () => {
      const article = await create('articles');
      expectError(await api.get(`/api/v2/videos/${article.public_id}/`), 404, 'not_found');
      expectError(await api.patch(`/api/v2/videos/${article.public_id}/`, { name: 'x' }), 404, 'not_found');
      for (const id of [crypto.randomUUID(), 'nope']) {
        expectError(await api.get(`/api/v2/articles/${id}/`), 404, 'not_found');
        expectError(await api.get(`/api/v2/content-items/${id}`), 404, 'not_found');
        expectError(await api.patch(`/api/v2/content-items/${id}/`, { name: 'x' }), 404, 'not_found');
        expectError(await api.delete(`/api/v2/content-items/${id}/`), 404, 'not_found');
      }
    });

    it('validates bodies: required fields, unknown fields, types, references', async () => {
      expectFieldError(await api.post('/api/v2/articles/', {}), 'name');
      expectFieldError(await api.post('/api/v2/links/', { name: 'x' }), 'url');
      expectFieldError(await api.post('/api/v2/links/', { name: 'x', url: 'ftp://example.com' }), 'url');
      expectFieldError(await api.post('/api/v2/articles/', { name: 'x', url: 'https://example.com' }), 'url');
      expectFieldError(await api.post('/api/v2/articles/', { name: 'x', is_archived: true }), 'is_archived');
      expectFieldError(await api.post('/api/v2/articles/', { name: 'x', duration: 1.5 }), 'duration');
      expectFieldError(await api.post('/api/v2/articles/', { name: 'x'.repeat(256) }), 'name');
      expectFieldError(await api.post('/api/v2/articles/', { name: 'x', channel_id: crypto.randomUUID() }), 'channel_id');
      expectFieldError(await api.post('/api/v2/articles/', { name: 'x', groups: [crypto.randomUUID()] }), 'groups');
      expectFieldError(await api.post('/api/v2/tracks/', { name: 'x', items: [crypto.randomUUID()] }), 'items');
      expectFieldError(await api.post('/api/v2/videos/', { name: 'x', media_status: 'ready' }), 'media_status');
      const article = await create('articles');
      expectFieldError(await api.post('/api/v2/tracks/', { name: 'x', items: [article.public_id, article.public_id] }), 'items');
      expectFieldError(
        await api.post('/api/v2/scheduled-tracks/', { name: 'x', starts_on: '2026-05-02', ends_on: '2026-05-01' }),
        'ends_on',
      );
      const scheduled = await create('scheduled-tracks', { starts_on: '2026-05-01' });
      expectFieldError(await api.patch(`/api/v2/scheduled-tracks/${scheduled.public_id}/`, { ends_on: '2026-04-30' }), 'ends_on');
      expectError(
        await api.post('/api/v2/articles/', undefined, { raw: '[1]', headers: { 'content-type': 'application/json' } }),
        400,
        'bad_request',
      );
    });

    it('refuses a track that would contain itself, directly or through a nested track', async () => {
      const inner = await create('tracks');
      const outer = await create('tracks', { items: [inner.public_id] });
      expectFieldError(await api.patch(`/api/v2/tracks/${inner.public_id}/`, { items: [inner.public_id] }), 'items');
      expectFieldError(await api.patch(`/api/v2/tracks/${inner.public_id}/`, { items: [outer.public_id] }), 'items');
      const top = await create('tracks', { items: [outer.public_id] });
      expectFieldError(await api.patch(`/api/v2/tracks/${inner.public_id}/`, { items: [top.public_id] }), 'items');
      // sharing a sub-track between two tracks is fine
      assert.equal((await api.patch(`/api/v2/tracks/${top.public_id}/`, { items: [outer.public_id, inner.public_id] })).status, 200);
    });

    it('patches only the fields sent, and answers each path with its own shape', async () => {
      const channel = (await api.post('/api/v2/channels/', { name: 'Patch channel' })).body;
      const link = await create('links', {
        url: 'https://example.com/a',
        description: 'first',
        tags: ['keep'],
        channel_id: channel.public_id,
      });
      const typed = await api.patch(`/api/v2/links/${link.public_id}/`, {
        url: 'https://example.com/b',
        duration: 12,
        is_completable: false,
      });
      assert.equal(typed.status, 200, typed.text);
      assert.deepEqual(
        [
          typed.body.url,
          typed.body.duration_minutes,
          typed.body.is_completable,
          typed.body.description,
          typed.body.tags,
          typed.body.channel,
        ],
        ['https://example.com/b', 12, false, 'first', ['keep'], { public_id: channel.public_id, name: 'Patch channel' }],
      );
      assert.ok(typed.body.modified > link.modified);

      const generic = await api.patch(`/api/v2/content-items/${link.public_id}/`, { name: 'Renamed', is_hidden: true, channel_id: null });
      assert.equal(generic.status, 200, generic.text);
      assert.deepEqual(Object.keys(generic.body), summaryKeys);
      assert.deepEqual([generic.body.name, generic.body.is_hidden, generic.body.channel], ['Renamed', true, null]);
      expectFieldError(await api.patch(`/api/v2/content-items/${link.public_id}/`, { url: 'https://example.com/c' }), 'url');

      const video = await create('videos', { media_asset_id: 'asset-a' });
      const detached = await api.patch(`/api/v2/videos/${video.public_id}/`, { media_asset_id: null });
      assert.deepEqual([detached.body.media_asset_id, detached.body.media_status], [null, 'none']);
    });

    it('leaves a PATCH that changes nothing without a new modified time', async () => {
      const article = await create('articles', { tags: ['a'] });
      const same = await api.patch(`/api/v2/articles/${article.public_id}/`, { name: article.name, tags: ['a'] });
      assert.equal(same.status, 200);
      assert.deepEqual(same.body, article);
    });

    it('keeps access groups when omitted, replaces them when sent and clears them with []', async () => {
      const g1 = (await api.post('/api/v2/groups/', { name: 'Access A' })).body;
      const g2 = (await api.post('/api/v2/groups/', { name: 'Access B' })).body;
      const item = await create('courses', { groups: [g1.public_id] });
      assert.deepEqual(item.groups, [{ public_id: g1.public_id, name: 'Access A' }]);
      const renamed = await api.patch(`/api/v2/content-items/${item.public_id}/`, { name: 'Still restricted' });
      assert.deepEqual(renamed.body.groups, item.groups);
      const replaced = await api.patch(`/api/v2/content-items/${item.public_id}/`, { groups: [g2.public_id, g1.public_id, g2.public_id] });
      assert.deepEqual(
        replaced.body.groups.map((g: any) => g.name),
        ['Access A', 'Access B'],
      );
      const cleared = await api.patch(`/api/v2/content-items/${item.public_id}/`, { groups: [] });
      assert.deepEqual(cleared.body.groups, []);
      expectFieldError(await api.patch(`/api/v2/content-items/${item.public_id}/`, { groups: ['not-a-uuid'] }), 'groups.0');
    });

    it('supports ETags: 304 on a matching If-None-Match, 412 on a stale If-Match', async () => {
      const article = await create('articles');
      for (const path of [`/api/v2/articles/${article.public_id}/`, `/api/v2/content-items/${article.public_id}/`]) {
        const read = await api.get(path);
        const etag = read.headers.get('etag')!;
        assert.equal((await api.get(path, { headers: { 'if-none-match': etag } })).status, 304);
        const changed = await api.patch(path, { description: `via ${path}` }, { headers: { 'if-match': etag } });
        assert.equal(changed.status, 200, changed.text);
        expectError(await api.patch(path, { description: 'stale' }, { headers: { 'if-match': etag } }), 412, 'precondition_failed');
      }
    });

    it('deletes with 204, then answers 404 everywhere and drops the item from lists and tracks', async () => {
      const tag = runTag();
      const article = await create('articles', { tags: [tag] });
      const track = await create('tracks', { items: [article.public_id] });
      const deleted = await api.delete(`/api/v2/content-items/${article.public_id}/`);
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      expectError(await api.get(`/api/v2/content-items/${article.public_id}/`), 404, 'not_found');
      expectError(await api.get(`/api/v2/articles/${article.public_id}/`), 404, 'not_found');
      expectError(await api.delete(`/api/v2/content-items/${article.public_id}/`), 404, 'not_found');
      assert.deepEqual(await ids(`tag=${tag}`), []);
      assert.deepEqual((await api.get(`/api/v2/tracks/${track.public_id}/`)).body.items, []);
      expectFieldError(await api.patch(`/api/v2/tracks/${track.public_id}/`, { items: [article.public_id] }), 'items');
      expectError(await api.delete(`/api/v2/articles/${track.public_id}/`), 405, 'method_not_allowed');
    });
  });

  describe('GET /content-items/ filters', () => {
    let tag: string;
    let channel: any;
    let group: any;
    let a: any, b: any, c: any, d: any;
    before(async () => {
      tag = runTag();
      channel = (await api.post('/api/v2/channels/', { name: `Filter channel ${tag}` })).body;
      group = (await api.post('/api/v2/groups/', { name: `Filter group ${tag}` })).body;
      a = await create('articles', { name: `${tag} Alpha`, tags: [tag, 'red', 'blue'], channel_id: channel.public_id });
      b = await create('videos', { name: `${tag} Bravo`, tags: [tag, 'red'], groups: [group.public_id], is_hidden: true });
      c = await create('links', { name: `${tag} charlie`, tags: [tag, 'blue'], url: 'https://example.com' });
      d = await create('tracks', { name: `${tag} Delta`, tags: [tag], channel_id: channel.public_id });
      const archived = await api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: c.public_id }] });
      assert.equal(archived.status, 200, archived.text);
      c = (await api.get(`/api/v2/content-items/${c.public_id}/`)).body;
    });

    it('filters by search, content_type (one or a list), is_archived and is_hidden', async () => {
      assert.deepEqual(await ids(`tag=${tag}`), idsOf(a, b, c, d));
      assert.deepEqual(await ids(`search=${encodeURIComponent(`${tag} CHAR`)}`), idsOf(c));
      assert.deepEqual(await ids(`search=${tag}&content_type=video`), idsOf(b));
      assert.deepEqual(await ids(`tag=${tag}&content_type=article,track`), idsOf(a, d));
      assert.deepEqual(await ids(`tag=${tag}&is_archived=true`), idsOf(c));
      assert.deepEqual(await ids(`tag=${tag}&is_archived=false`), idsOf(a, b, d));
      assert.deepEqual(await ids(`tag=${tag}&is_hidden=true`), idsOf(b));
      assert.deepEqual(await ids(`tag=${tag}&is_hidden=false&is_archived=false`), idsOf(a, d));
      assert.deepEqual(await ids(`tag=${tag}&content_type=event,event_type`), []);
    });

    it('filters by channel, group, tag and tag_all', async () => {
      assert.deepEqual(await ids(`channel=${channel.public_id}`), idsOf(a, d));
      assert.deepEqual(await ids(`group=${group.public_id}`), idsOf(b));
      assert.deepEqual(await ids(`tag=${tag}&tag=${tag}`), idsOf(a, b, c, d));
      assert.deepEqual(await ids(`tag_all=${tag},red`), idsOf(a, b));
      assert.deepEqual(await ids(`tag_all=${tag},red,blue`), idsOf(a));
      assert.deepEqual(await ids(`tag_all=${tag},RED`), [], 'tag names match exactly');
      assert.deepEqual(await ids(`tag=${tag}&tag_all=blue`), idsOf(a, c));
      assert.deepEqual(await ids(`channel=${crypto.randomUUID()}`), []);
      assert.deepEqual(await ids(`tag=no-such-tag-${tag}`), []);
    });

    it('searches ignoring the case of every letter', async () => {
      const mark = `unicode-${runTag()}`; // not this block's tag, which other tests search for
      const item = await create('articles', { name: `${mark} Привет café` });
      assert.deepEqual(await ids(`search=${encodeURIComponent(`${mark} ПРИВЕТ CAFÉ`)}`), idsOf(item));
      assert.deepEqual(await ids(`search=${encodeURIComponent(`${mark} привет CAFE`)}`), [], 'letters differing beyond case still differ');
    });

    it('bounds tag_all and tag like a tag list, with a 400 naming the parameter', async () => {
      const names = (count: number) => Array.from({ length: count }, (_, i) => `t${i}`);
      for (const collection of [
        'content-items',
        'articles',
        'videos',
        'courses',
        'guides',
        'links',
        'tracks',
        'scheduled-tracks',
        'collections',
        'events',
      ]) {
        if (collection !== 'events') {
          const many = await api.get(`/api/v2/${collection}/?tag_all=${names(1000).join(',')}`);
          expectError(many, 400, 'bad_request');
          assert.match(many.body.error.message, /'tag_all' may name at most 100 values/);
        }
        const long = await api.get(`/api/v2/${collection}/?tag=${'x'.repeat(101)}`);
        expectError(long, 400, 'bad_request');
        assert.match(long.body.error.message, /'tag' must be at most 100 characters/);
      }
      assert.deepEqual(await ids(`tag_all=${[tag, 'red', ...names(98)].join(',')}`), [], 'a full list of 100 runs');
      assert.deepEqual(await ids(`tag_all=${[tag, ...Array(99).fill('red')].join(',')}`), idsOf(a, b));
    });

    it('filters by created and modified bounds', async () => {
      assert.deepEqual(
        await ids(`tag=${tag}&created__gte=${encodeURIComponent(b.created)}&created__lte=${encodeURIComponent(c.created)}`),
        idsOf(b, c),
      );
      assert.deepEqual(await ids(`tag=${tag}&modified__gte=${encodeURIComponent(c.modified)}`), idsOf(c));
      assert.deepEqual(await ids(`tag=${tag}&modified__lte=${encodeURIComponent(d.modified)}`), idsOf(a, b, d));
      assert.deepEqual(await ids(`tag=${tag}&created__lte=2000-01-01`), []);
    });

    it('orders by name, created and modified, and pages with a true total', async () => {
      assert.deepEqual(await ids(`tag=${tag}&ordering=-created`), idsOf(d, c, b, a));
      assert.deepEqual(await ids(`tag=${tag}&ordering=name`), idsOf(a, b, d, c), 'binary order: capitals first');
      assert.deepEqual(await ids(`tag=${tag}&ordering=-modified`), idsOf(c, d, b, a));
      assert.deepEqual(await ids(`tag=${tag}&ordering=content_type,-name`), idsOf(a, c, d, b));
      const page = await api.get(`/api/v2/content-items/?tag=${tag}&page=2&page_size=3`);
      assert.deepEqual(page.body.meta, { page: 2, page_size: 3, total_count: 4 });
      assert.deepEqual(
        page.body.data.map((i: any) => i.public_id),
        idsOf(d),
      );
      const past = await api.get(`/api/v2/content-items/?tag=${tag}&page=9`);
      assert.deepEqual([past.body.data, past.body.meta.total_count], [[], 4]);
    });

    it('applies the same filters on type collections', async () => {
      assert.deepEqual(await ids(`search=${tag}`, api, 'articles'), idsOf(a));
      assert.deepEqual(await ids(`search=${tag}&is_hidden=true`, api, 'videos'), idsOf(b));
      assert.deepEqual(await ids(`search=${tag}&is_archived=true`, api, 'links'), idsOf(c));
      assert.deepEqual(await ids(`search=${tag}&is_archived=false`, api, 'links'), []);
      assert.deepEqual(await ids(`channel=${channel.public_id}`, api, 'tracks'), idsOf(d));
    });

    it('answers malformed filter values with 400 naming the parameter', async () => {
      for (const query of [
        'content_type=podcast',
        'content_type=article,podcast',
        'is_archived=maybe',
        'is_hidden=1',
        'channel=nope',
        'group=nope',
        'created__gte=yesterday',
        'modified__lte=2026-13-01',
        'ordering=popularity',
        'page=0',
        'page_size=x',
      ]) {
        const response = await api.get(`/api/v2/content-items/?${query}`);
        expectError(response, 400, 'bad_request');
        assert.match(response.body.error.message, new RegExp(query.split('=')[0]!), query);
      }
    });
  });

  describe('tags', () => {
    it('reads, adds, removes and replaces an item’s tags, creating unknown names', async () => {
      const item = await create('guides', { tags: ['b', 'a'] });
      const path = `/api/v2/content-items/${item.public_id}/tags/`;
      assert.deepEqual((await api.get(path)).body, { data: ['a', 'b'] });
      assert.deepEqual((await api.get(path.slice(0, -1))).body, { data: ['a', 'b'] });
      const added = await api.post(path, { tags: ['c', 'a', `fresh-${runTag()}`] });
      assert.equal(added.status, 200, added.text);
      assert.equal(added.body.data.length, 4);
      assert.deepEqual((await api.delete(path, { tags: ['a', 'never-attached'] })).body.data.slice(0, 2), ['b', 'c']);
      assert.deepEqual((await api.put(path, { tags: ['z', ' y '] })).body, { data: ['y', 'z'] });
      assert.deepEqual((await api.get(`/api/v2/guides/${item.public_id}/`)).body.tags, ['y', 'z']);
      assert.deepEqual((await api.put(path, { tags: [] })).body, { data: [] });
      expectFieldError(await api.post(path, { tags: [] }), 'tags');
      expectFieldError(await api.post(path, {}), 'tags');
      expectFieldError(await api.post(path, { tags: ['x'.repeat(101)] }), 'tags.0');
      expectError(await api.get(`/api/v2/content-items/${crypto.randomUUID()}/tags/`), 404, 'not_found');
      expectError(await api.post(`/api/v2/content-items/${crypto.randomUUID()}/tags/`, { tags: ['x'] }), 404, 'not_found');
    });
  });

  describe('channels', () => {
    it('creates, reads, renames and lists channels', async () => {
      const name = `Channel ${runTag()}`;
      const created = await api.post('/api/v2/channels/', { name });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.body), ['public_id', 'name', 'created', 'modified']);
      const id = created.body.public_id;
      const read = await api.get(`/api/v2/channels/${id}`);
      assert.deepEqual(read.body, created.body);
      assert.equal((await api.get(`/api/v2/channels/${id}/`, { headers: { 'if-none-match': read.headers.get('etag')! } })).status, 304);
      const renamed = await api.patch(`/api/v2/channels/${id}/`, { name: `${name} renamed` });
      assert.equal(renamed.body.name, `${name} renamed`);
      const listed = await api.get(`/api/v2/channels/?search=${encodeURIComponent(name.toLowerCase())}`);
      assert.deepEqual(
        listed.body.data.map((c: any) => c.public_id),
        [id],
      );
      expectFieldError(await api.post('/api/v2/channels/', {}), 'name');
      expectFieldError(await api.patch(`/api/v2/channels/${id}/`, { colour: 'red' }), 'colour');
      expectError(await api.get(`/api/v2/channels/${crypto.randomUUID()}/`), 404, 'not_found');
      const item = await create('articles', { channel_id: id });
      assert.equal((await api.get(`/api/v2/content-items/${item.public_id}/`)).body.channel.name, `${name} renamed`);
    });
  });

  describe('roles and visibility', () => {
    it('lets role user see only items it may see, and 404s the rest', async () => {
      const tag = runTag();
      const learner = await userWithToken(server, 'user');
      const mine = (await api.post('/api/v2/groups/', { name: `Learners ${tag}` })).body;
      const theirs = (await api.post('/api/v2/groups/', { name: `Others ${tag}` })).body;
      await api.post(`/api/v2/groups/${mine.public_id}/members/`, { member_ids: [learner.user.public_id] });

      const open = await create('articles', { name: 'open', tags: [tag] });
      const inMyGroup = await create('articles', { name: 'mine', tags: [tag], groups: [mine.public_id] });
      const inBoth = await create('courses', { name: 'both', tags: [tag], groups: [theirs.public_id, mine.public_id] });
      const inOtherGroup = await create('articles', { name: 'theirs', tags: [tag], groups: [theirs.public_id] });
      const hidden = await create('articles', { name: 'hidden', tags: [tag], is_hidden: true });
      const archived = await create('articles', { name: 'archived', tags: [tag] });
      await api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: archived.public_id }] });
      const track = await create('tracks', {
        name: 'track',
        tags: [tag],
        items: [open.public_id, inOtherGroup.public_id, hidden.public_id, inMyGroup.public_id],
      });
      const doomedGroup = (await api.post('/api/v2/groups/', { name: `Doomed ${tag}` })).body;
      const orphaned = await create('articles', { name: 'orphaned', tags: [tag], groups: [doomedGroup.public_id] });
      assert.equal((await api.delete(`/api/v2/groups/${doomedGroup.public_id}/`)).status, 204);

      const visible = [open, inMyGroup, inBoth, track];
      assert.deepEqual(await ids(`tag=${tag}`, learner.api), idsOf(...visible));
      assert.equal((await learner.api.get(`/api/v2/content-items/?tag=${tag}`)).body.meta.total_count, 4);
      assert.deepEqual(await ids(`tag=${tag}`, learner.api, 'articles'), idsOf(open, inMyGroup));
      assert.deepEqual(await ids(`tag=${tag}&is_hidden=true`, learner.api), []);
      assert.deepEqual(await ids(`tag=${tag}&is_archived=true`, learner.api), []);
      for (const item of visible) assert.equal((await learner.api.get(`/api/v2/content-items/${item.public_id}/`)).status, 200);
      for (const item of [inOtherGroup, hidden, archived, orphaned]) {
        expectError(await learner.api.get(`/api/v2/content-items/${item.public_id}/`), 404, 'not_found');
        expectError(await learner.api.get(`/api/v2/articles/${item.public_id}/`), 404, 'not_found');
        expectError(await learner.api.get(`/api/v2/content-items/${item.public_id}/tags/`), 404, 'not_found');
      }
      // a track shows a learner only the items the learner may see
      const seen = await learner.api.get(`/api/v2/tracks/${track.public_id}/`);
      assert.deepEqual(
        seen.body.items.map((i: any) => i.name),
        ['open', 'mine'],
      );
      assert.equal((await api.get(`/api/v2/tracks/${track.public_id}/`)).body.items.length, 4);
      // admins and organizers see all of it, hidden and archived included
      const organizer = await userWithToken(server, 'organizer');
      assert.equal((await organizer.api.get(`/api/v2/content-items/?tag=${tag}`)).body.meta.total_count, 8);

      // leaving the group takes the group's items away
      await api.delete(`/api/v2/groups/${mine.public_id}/members/`, { member_ids: [learner.user.public_id] });
      assert.deepEqual(await ids(`tag=${tag}`, learner.api), idsOf(open, track));
    });

    it('lets admins and organizers write content; role user gets 403, a read-only token insufficient_scope', async () => {
      const learner = await userWithToken(server, 'user');
      const organizer = await userWithToken(server, 'organizer');
      const reader = await userWithToken(server, 'organizer', 'content:read');
      const item = await create('articles');
      const writes: Array<(client: ApiClient) => Promise<ApiResponse>> = [
        (client) => client.post('/api/v2/articles/', { name: 'x' }),
        (client) => client.patch(`/api/v2/articles/${item.public_id}/`, { name: 'x' }),
        (client) => client.patch(`/api/v2/content-items/${item.public_id}/`, { name: 'x' }),
        (client) => client.post(`/api/v2/content-items/${item.public_id}/tags/`, { tags: ['x'] }),
        (client) => client.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: item.public_id }] }),
        (client) => client.put('/api/v2/content-items/bulk/tags/', { items: [{ public_id: item.public_id }], tags: [] }),
        (client) => client.post('/api/v2/channels/', { name: 'x' }),
        (client) => client.delete(`/api/v2/content-items/${item.public_id}/`),
      ];
      for (const write of writes) {
        expectError(await write(learner.api), 403, 'forbidden');
        expectError(await write(reader.api), 403, 'insufficient_scope');
      }
      assert.equal((await reader.api.get(`/api/v2/content-items/${item.public_id}/`)).status, 200);
      assert.equal((await organizer.api.post('/api/v2/videos/', { name: 'by organizer' })).status, 201);
      assert.equal((await organizer.api.delete(`/api/v2/content-items/${item.public_id}/`)).status, 204);
    });
  });
});
