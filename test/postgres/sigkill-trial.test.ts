/**
 * The two-server trial (docs/scaling.md, "Trials"): two servers on one PostgreSQL database; each
 * round submits a 500-user job and a 200-assignment job, one to each server, and SIGKILLs one of
 * the servers at a random moment while they run, then starts it again under the same instance id.
 * Every job must end with every item processed once, no user or assignment lost or duplicated, and
 * every webhook event delivered (at least once: duplicates are counted and reported).
 * LECTERN_TRIAL_ROUNDS sets the number of rounds (20 by default).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { waitForJob } from '../helpers/bulk-jobs.ts';
import { queryDatabase } from '../helpers/database.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../helpers/postgres.ts';
import { ApiClient, startServer, type TestServer } from '../helpers/server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

const ROUNDS = Number(process.env.LECTERN_TRIAL_ROUNDS ?? 20);
const USERS_PER_JOB = 500;
const ASSIGNMENTS_PER_JOB = 200;
const ARGS = ['--rate-limit', '1000000', '--allow-private-webhook-targets', '--job-chunk-size', '25', '--webhook-retry-schedule', '1,1,1'];

describe('trial: two servers, one SIGKILLed at random moments', { skip: !postgresServerUrl }, () => {
  let receiver: WebhookReceiver;
  const servers: TestServer[] = [];
  after(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await receiver?.close();
  });

  it(`${ROUNDS} rounds: every job completes, each item once, nothing lost or duplicated, every event delivered`, async () => {
    receiver = await WebhookReceiver.start();
    const dbFile = await freshPostgresDatabase();
    const start = (id: string) => startServer({ dbFile, instances: 1, instanceIds: [id], args: ARGS });
    servers.push(await start('a'));
    servers.push(await start('b'));
    const adminToken = servers[0]!.adminToken;
    const client = (index: number) => new ApiClient(servers[index]!.url, adminToken);

    const hook = await client(0).post('/public_api/v2/webhooks/', { url: receiver.url('/trial'), events: ['assignment.created'] });
    assert.equal(hook.status, 201, hook.text);
    const article = (await client(1).post('/api/v2/articles/', { name: 'Trial article' })).body;

    const figures = { rounds: 0, jobs: 0, items: 0, kills: 0, users: 0, assignments: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const users = Array.from({ length: USERS_PER_JOB }, (_, i) => ({
        email: `r${round}.u${i}@trial.example.com`,
        name: `R${round} U${i}`,
      }));
      // the assignments go to the previous round's users (the first round's, to users made for it)
      const assignees =
        round === 0 ? await seedAssignees(client(0)) : Array.from({ length: ASSIGNMENTS_PER_JOB }, (_, i) => `r${round - 1}.u${i}`);
      const ids = await userIds(dbFile, assignees);
      const [usersTo, assignmentsTo] = round % 2 ? [1, 0] : [0, 1];
      const usersJob = await client(usersTo).post('/api/v2/users/bulk/', { users });
      const assignmentsJob = await client(assignmentsTo).post('/api/v2/assignments/bulk/', {
        assignments: ids.map((id) => ({ user_id: id, content_item_id: article.public_id })),
      });
      assert.equal(usersJob.status, 202, usersJob.text);
      assert.equal(assignmentsJob.status, 202, assignmentsJob.text);

      // SIGKILL one server at a random moment while the jobs run, and start it again
      const victim = Math.floor(Math.random() * 2);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 600));
      await servers[victim]!.kill();
      figures.kills++;
      servers[victim] = await start(victim === 0 ? 'a' : 'b');

      const usersDone = await waitForJob(client(1 - victim), `/api/v2/users/bulk/${usersJob.body.id}/`, 120_000);
      const assignmentsDone = await waitForJob(client(victim), `/api/v2/assignments/bulk/${assignmentsJob.body.id}/`, 120_000);
      assert.deepEqual(
        [usersDone.status, usersDone.processed, usersDone.succeeded, usersDone.failed],
        ['completed', USERS_PER_JOB, USERS_PER_JOB, 0],
        `round ${round}: an item processed twice would fail as a duplicate email`,
      );
      assert.deepEqual([assignmentsDone.status, assignmentsDone.processed, assignmentsDone.failed], ['completed', ASSIGNMENTS_PER_JOB, 0]);
      figures.rounds++;
      figures.jobs += 2;
      figures.items += USERS_PER_JOB + ASSIGNMENTS_PER_JOB;
    }

    const [{ n: users }] = await queryDatabase(dbFile, `select count(*) as n from users where email like '%@trial.example.com'`);
    const [{ n: assignments }] = await queryDatabase(dbFile, 'select count(*) as n from assignments');
    const [{ n: created }] = await queryDatabase(dbFile, `select count(*) as n from outbox_events where type = 'assignment.created'`);
    figures.users = Number(users);
    figures.assignments = Number(assignments);
    assert.equal(figures.users, ROUNDS * USERS_PER_JOB + ASSIGNMENTS_PER_JOB, 'no user lost or duplicated');
    assert.equal(figures.assignments, ROUNDS * ASSIGNMENTS_PER_JOB, 'no assignment lost or duplicated');
    assert.equal(Number(created), figures.assignments, 'one assignment.created event per assignment');

    // duplicates count among the requests, so wait for every distinct event rather than a number of requests
    const eventIds = () => receiver.to('/trial').map((request) => String(request.headers['webhook-id']));
    const deadline = Date.now() + 120_000;
    while (new Set(eventIds()).size < figures.assignments && Date.now() < deadline) {
      await receiver.waitFor((request) => request.path === '/trial', eventIds().length + 1, deadline - Date.now()).catch(() => []);
    }
    const delivered = eventIds();
    const distinct = new Set(delivered).size;
    assert.equal(distinct, figures.assignments, 'every event delivered');
    console.log(
      `trial: ${JSON.stringify({ ...figures, events: figures.assignments, delivered: delivered.length, duplicates: delivered.length - distinct })}`,
    );
  });
});

/** The first round's assignees: users made for it, before any kill. */
async function seedAssignees(api: ApiClient): Promise<string[]> {
  const prefixes = Array.from({ length: ASSIGNMENTS_PER_JOB }, (_, i) => `seed.u${i}`);
  const submitted = await api.post('/api/v2/users/bulk/', {
    users: prefixes.map((prefix) => ({ email: `${prefix}@trial.example.com`, name: prefix })),
  });
  assert.equal(submitted.status, 202, submitted.text);
  const job = await waitForJob(api, `/api/v2/users/bulk/${submitted.body.id}/`, 60_000);
  assert.equal(job.succeeded, ASSIGNMENTS_PER_JOB);
  return prefixes;
}

/** The public ids of the users whose emails start with these local parts. */
async function userIds(dbFile: string, localParts: string[]): Promise<string[]> {
  const rows = await queryDatabase(dbFile, `select public_id, email from users where email like '%@trial.example.com'`);
  const byEmail = new Map(rows.map((row) => [row.email as string, row.public_id as string]));
  return localParts.map((part) => {
    const id = byEmail.get(`${part}@trial.example.com`);
    assert.ok(id, `user ${part} exists`);
    return id;
  });
}
