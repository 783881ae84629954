/**
 * Several Lectern servers on one PostgreSQL database, each safe under the others (docs/scaling.md):
 * one migration and one admin when they start together, one rate limit per token, conditional
 * requests and create-or-get across servers, each webhook event delivered once, each bulk job
 * item processed once. The black-box suite also runs on two servers (scripts/run-tests.mjs); these
 * are the cases that only mean something with several.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jobItems, waitForJob } from '../helpers/bulk-jobs.ts';
import { queryDatabase } from '../helpers/database.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../helpers/postgres.ts';
import { ApiClient, expectError, startServer, uniqueEmail, type TestServer } from '../helpers/server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

if (!postgresServerUrl) console.warn('LECTERN_TEST_POSTGRES_URL is not set: the several-servers tests are left out');

describe('several servers on one PostgreSQL database', { skip: !postgresServerUrl }, () => {
  it('start together on an empty database: the schema is migrated once and one admin is created', async () => {
    const url = await freshPostgresDatabase();
    const [a, b] = (await Promise.all(['a', 'b'].map((id) => startServer({ dbFile: url, instances: 1, instanceIds: [id] })))) as [
      TestServer,
      TestServer,
    ];
    try {
      const tokens = [a, b].map((server) => server.adminToken).filter((token) => token !== '');
      assert.equal(tokens.length, 1, 'exactly one of them printed the bootstrap token');
      const migrations = await queryDatabase(url, 'select name from kysely_migration');
      assert.equal(new Set(migrations.map((row) => row.name)).size, migrations.length);
      for (const server of [a, b]) assert.equal((await server.api.get('/readyz', { token: null })).status, 200);
      const admins = await new ApiClient(b.url, tokens[0]!).get('/api/v2/users/?role=admin');
      assert.equal(admins.status, 200, admins.text);
      assert.equal(admins.body.meta.total_count, 1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  describe('sharing the database', () => {
    let receiver: WebhookReceiver;
    let server: TestServer;
    let a: ApiClient;
    let b: ApiClient;
    before(async () => {
      receiver = await WebhookReceiver.start();
      server = await startServer({ instances: 2, dbFile: await freshPostgresDatabase(), args: ['--allow-private-webhook-targets'] });
      [a, b] = server.urls.map((url) => new ApiClient(url, server.adminToken)) as [ApiClient, ApiClient];
    });
    after(async () => {
      await server.stop();
      await receiver.close();
    });

    const newUser = async (client: ApiClient) => {
      const response = await client.post('/api/v2/users/', { email: uniqueEmail('shared'), name: 'Shared' });
      assert.equal(response.status, 201, response.text);
      return response.body;
    };

    it('counts one rate limit per token, whichever server answers', async () => {
      const limited = await startServer({ instances: 2, dbFile: await freshPostgresDatabase(), args: ['--rate-limit', '4'] });
      try {
        const remaining: string[] = [];
        for (let i = 0; i < 4; i++) {
          const response = await limited.api.get('/api/v2/users/');
          assert.equal(response.status, 200, response.text);
          remaining.push(response.headers.get('x-ratelimit-remaining')!);
        }
        assert.deepEqual(remaining, ['3', '2', '1', '0'], 'the four requests alternated between the servers');
        for (const url of limited.urls) {
          const refused = await new ApiClient(url, limited.adminToken).get('/api/v2/users/');
          expectError(refused, 429, 'rate_limited');
          assert.ok(Number(refused.headers.get('retry-after')) >= 1);
        }
      } finally {
        await limited.stop();
      }
    });

    it('keeps ETags and If-Match exact across servers', async () => {
      const user = await newUser(a);
      const path = `/api/v2/users/${user.public_id}/`;
      const read = await b.get(path);
      const etag = read.headers.get('etag')!;
      assert.equal((await a.get(path, { headers: { 'if-none-match': etag } })).status, 304, 'the same ETag on both servers');
      const changed = await a.patch(path, { name: 'Renamed on a' }, { headers: { 'if-match': etag } });
      assert.equal(changed.status, 200, changed.text);
      expectError(await b.patch(path, { name: 'Stale on b' }, { headers: { 'if-match': etag } }), 412, 'precondition_failed');
      assert.equal((await b.get(path)).body.name, 'Renamed on a');
    });

    it('creates an assignment once when the same create-or-get lands on both servers at once', async () => {
      const user = await newUser(a);
      const article = (await b.post('/api/v2/articles/', { name: 'Shared article' })).body;
      const body = { user_id: user.public_id, content_item_id: article.public_id };
      const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).post('/api/v2/assignments/', body)));
      assert.deepEqual(
        responses.map((response) => response.status).sort(),
        [200, 200, 200, 200, 200, 200, 200, 200, 200, 201],
        responses.map((response) => response.text).join('\n'),
      );
      assert.equal(new Set(responses.map((response) => response.body.public_id)).size, 1);
      const listed = await a.get(`/api/v2/assignments/?user=${user.public_id}`);
      assert.equal(listed.body.meta.total_count, 1);
    });

    it('delivers each webhook event once, whichever server recorded it', async () => {
      const hook = await a.post('/public_api/v2/webhooks/', { url: receiver.url('/shared'), events: ['assignment.created'] });
      assert.equal(hook.status, 201, hook.text);
      const article = (await a.post('/api/v2/articles/', { name: 'Delivered article' })).body;
      const users = await Promise.all(Array.from({ length: 40 }, (_, i) => newUser(i % 2 ? a : b)));
      await Promise.all(
        users.map(async (user, i) => {
          const response = await (i % 2 ? b : a).post('/api/v2/assignments/', {
            user_id: user.public_id,
            content_item_id: article.public_id,
          });
          assert.equal(response.status, 201, response.text);
        }),
      );
      const received = await receiver.waitFor((request) => request.path === '/shared', 40);
      // both servers deliver: wait a moment for a duplicate that would be late
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ids = receiver.to('/shared').map((request) => String(request.headers['webhook-id']));
      assert.equal(received.length, 40);
      assert.equal(new Set(ids).size, ids.length, 'no event was delivered twice');
      const assigned = new Set(receiver.to('/shared').map((request) => JSON.parse(request.body).data.object.user.public_id));
      assert.deepEqual([...assigned].sort(), users.map((user) => user.public_id).sort());
    });

    it('processes each item of bulk jobs submitted to both servers exactly once', async () => {
      const emails = (prefix: string) => Array.from({ length: 100 }, () => uniqueEmail(prefix));
      const batches = [emails('job-a'), emails('job-b')];
      const submitted = await Promise.all(
        batches.map((batch, i) => (i ? b : a).post('/api/v2/users/bulk/', { users: batch.map((email) => ({ email, name: 'Bulk' })) })),
      );
      for (const response of submitted) assert.equal(response.status, 202, response.text);
      for (const response of submitted) {
        const path = `/api/v2/users/bulk/${response.body.id}/`;
        const job = await waitForJob(b, path);
        assert.deepEqual([job.status, job.total, job.processed, job.succeeded, job.failed], ['completed', 100, 100, 100, 0]);
        const items = await jobItems(a, path);
        assert.equal(items.length, 100);
        assert.ok(
          items.every((item) => item.status === 'succeeded'),
          JSON.stringify(items.find((item) => item.status !== 'succeeded')),
        );
      }
      for (const batch of batches) {
        const rows = await queryDatabase(server.dbFile, `select count(*) as n from users where email like ?`, [
          `${batch[0]!.split('.')[0]}.%`,
        ]);
        assert.equal(Number(rows[0].n), 100, 'every user created once');
      }
    });
  });
});
