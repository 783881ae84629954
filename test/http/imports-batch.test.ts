/**
 * An import writes new rows in batches (a few multi-row statements for many rows) where the bulk
 * route writes them one item at a time. Both must leave the same data behind: the same outcome per
 * row, the same resources, counters, webhook events and audit entries. Each test builds two equal
 * worlds (users, content, tracks, events, earlier assignments), sends the same rows to one through
 * `POST /imports/` and to the other through `POST /<kind>/bulk/`, and compares what each left. The
 * rows mix the cases the batch writes itself with those it leaves to the item write (tracks,
 * content a track holds, archived content, pairs already assigned, full events), in one batch.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { waitForJob } from '../helpers/bulk-jobs.ts';
import { queryDatabase } from '../helpers/database.ts';
import { outboxAfter, lastSequence } from '../helpers/outbox.ts';
import { uniqueEmail, useServer, type ApiClient } from '../helpers/server.ts';

type World = {
  users: any[];
  content: Record<string, any>;
  events: Record<string, any>;
};

/** Six users, content of every case, three events; u1 already assigned c1 and u3 event e1. */
async function buildWorld(api: ApiClient, side: string): Promise<World> {
  const users = [];
  for (let i = 1; i <= 6; i++) users.push((await api.post('/api/v2/users/', { email: uniqueEmail(`${side}u${i}`), name: `U${i}` })).body);
  const article = async (name: string) => (await api.post('/api/v2/articles/', { name: `${side}:${name}` })).body;
  const content: Record<string, any> = { c1: await article('c1'), c2: await article('c2'), archived: await article('archived') };
  content.tracked = await article('tracked');
  content.track = (await api.post('/api/v2/tracks/', { name: `${side}:track`, items: [content.tracked.public_id] })).body;
  await api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: content.archived.public_id }] });
  const event = async (name: string, settings: object) =>
    (
      await api.post('/api/v2/events/', {
        name: `${side}:${name}`,
        timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }],
        ...settings,
      })
    ).body;
  const events = {
    e1: await event('e1', { is_local: true, enrollment_limit: 2, wait_list_limit: 1 }),
    e2: await event('e2', { is_local: false, is_online: true }),
    e3: await event('e3', { is_local: true, enrollment_limit: 1, wait_list_limit: 1 }),
  };
  for (const [user, item] of [
    [users[0], content.c1],
    [users[2], events.e1],
  ]) {
    const assigned = await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: item.public_id });
    assert.equal(assigned.status, 201, assigned.text);
  }
  for (const item of Object.values(content)) assert.ok(item.public_id, JSON.stringify(item));
  for (const item of Object.values(events)) assert.ok(item.public_id, JSON.stringify(item));
  return { users, content, events };
}

/** Each row's outcome on one side (`created`, `existing`, `failed <code>`), in row order. */
const outcomes = (side: ReadonlyArray<{ outcome: string }>) => side.map((row) => row.outcome);

/** The name of a world's thing without its side, to compare the worlds. */
const label = (name: string) => name.replace(/^[AB]:/, '');

describe('an import writes what the bulk route writes', () => {
  const server = useServer();
  let api: ApiClient;
  before(() => {
    api = server.api;
  });

  /** Uploads `csv` as an import of `kind` and waits for it to end; the finished import. */
  async function importCsv(kind: string, csv: string): Promise<any> {
    const uploaded = await api.request('POST', `/api/v2/imports/?kind=${kind}`, { raw: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(uploaded.status, 202, uploaded.text);
    for (;;) {
      const done = (await api.get(`/api/v2/imports/${uploaded.body.id}/`)).body;
      if (done.status !== 'pending' && done.status !== 'running') return done;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Runs `rows(world)` through an import in world A and the bulk route in world B; both sides' outcomes. */
  async function bothWays(kind: string, columns: string[], rows: (world: World) => Array<Record<string, unknown>>) {
    const [a, b] = [await buildWorld(api, 'A'), await buildWorld(api, 'B')];
    const from = await lastSequence(server.dbFile);

    const csv = [columns.join(','), ...rows(a).map((row) => columns.map((column) => String(row[column] ?? '')).join(','))].join('\n');
    const done = await importCsv(kind, csv);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const reportText = await (
      await fetch(`${api.baseUrl}/api/v2/imports/${done.id}/report/`, { headers: { authorization: `Bearer ${api.token}` } })
    ).text();
    const imported = (parse(reportText, { relax_column_count: true }) as string[][])
      .slice(1)
      .map((row) => ({ outcome: row[3] ? `failed ${row[3]}` : row[1]!, publicId: row[2] || null }));

    const submitted = await api.post(`/api/v2/${kind}/bulk/`, { [kind]: rows(b) });
    assert.equal(submitted.status, 202, submitted.text);
    await waitForJob(api, `/api/v2/${kind}/bulk/${submitted.body.id}/`);
    const items = (await api.get(`/api/v2/${kind}/bulk/${submitted.body.id}/items/?page_size=100`)).body.data;
    const bulk = items.map((item: any) => ({
      // the bulk route fails a taken email as `duplicate`; an import reports the user as existing
      outcome:
        item.error?.code === 'duplicate' ? 'existing' : item.error ? `failed ${item.error.code}` : item.created ? 'created' : 'existing',
      publicId: item.public_id,
    }));
    const events = await outboxAfter(server.dbFile, from);
    return { a, b, imported, bulk, events };
  }

  /** Every webhook event of a world's rows, as type and the labels of what it is about, sorted. */
  function eventsOf(events: Awaited<ReturnType<typeof outboxAfter>>, world: World): string[] {
    const emails = new Map(world.users.map((user, i) => [user.email, `u${i + 1}`]));
    return events
      .map((event) => event.payload.data.object)
      .map((object, i) => ({ object, type: events[i]!.type }))
      .filter(({ object }) => emails.has(object.user?.email))
      .map(({ object, type }) =>
        [
          type,
          emails.get(object.user.email),
          label(object.content_item?.name ?? object.event?.name ?? ''),
          object.status ?? object.state,
        ].join(' '),
      )
      .sort();
  }

  /** Audit actions of these resources, sorted. */
  async function auditOf(publicIds: Array<string | null>): Promise<string[]> {
    const ids = publicIds.filter((id): id is string => id !== null);
    if (ids.length === 0) return [];
    const marks = ids.map(() => '?').join(', ');
    const rows = await queryDatabase(
      server.dbFile,
      `select action from audit_log_recent where resource_id in (${marks}) union all select action from audit_log where resource_id in (${marks})`,
      [...ids, ...ids],
    );
    return rows.map((row) => row.action).sort();
  }

  /** Each user's assignments as labels: content, state, due date, whether an enrollment owns it. */
  async function assignmentsOf(world: World): Promise<string[]> {
    const found: string[] = [];
    for (const [i, user] of world.users.entries()) {
      const page = (await api.get(`/api/v2/assignments/?user=${user.public_id}&page_size=100`)).body;
      for (const assignment of page.data) {
        found.push(
          [`u${i + 1}`, label(assignment.content_item.name), assignment.state, assignment.due_date, assignment.is_enrollment_managed].join(
            ' ',
          ),
        );
      }
    }
    return found.sort();
  }

  /** Each content item's counters as it shows them (kept per write, so a batch must add them up). */
  async function countersOf(world: World): Promise<string[]> {
    const shown = [];
    for (const item of Object.values(world.content)) {
      const current = (await api.get(`/api/v2/${item.content_type}s/${item.public_id}/`)).body;
      assert.equal(typeof current.total_assignments, 'number', JSON.stringify(current));
      shown.push(`${label(item.name)} ${current.total_assignments} ${current.completed_assignments_count}`);
    }
    return shown;
  }

  it('assignments: plain rows, an existing pair, a track, content a track holds, archived and missing content', async () => {
    const missing = '00000000-0000-7000-8000-000000000000';
    const result = await bothWays('assignments', ['user_id', 'content_item_id', 'due_date'], (w) => [
      { user_id: w.users[0].public_id, content_item_id: w.content.c1.public_id },
      { user_id: w.users[1].public_id, content_item_id: w.content.c1.public_id, due_date: '2030-01-31' },
      { user_id: w.users[1].public_id, content_item_id: w.content.c2.public_id },
      { user_id: w.users[2].public_id, content_item_id: w.content.archived.public_id },
      { user_id: w.users[2].public_id, content_item_id: w.content.track.public_id },
      { user_id: w.users[3].public_id, content_item_id: w.content.tracked.public_id },
      { user_id: w.users[4].public_id, content_item_id: w.content.c2.public_id, due_date: '2031-12-01' },
      { user_id: w.users[5].public_id, content_item_id: missing },
    ]);
    assert.deepEqual(outcomes(result.imported), [
      'existing',
      'created',
      'created',
      'failed archived',
      'created',
      'created',
      'created',
      'failed not_found',
    ]);
    assert.deepEqual(outcomes(result.imported), outcomes(result.bulk));
    assert.deepEqual(await assignmentsOf(result.a), await assignmentsOf(result.b));
    assert.deepEqual(await countersOf(result.a), await countersOf(result.b));
    assert.deepEqual(eventsOf(result.events, result.a), eventsOf(result.events, result.b));
    assert.ok(eventsOf(result.events, result.a).filter((event) => event.startsWith('assignment.created')).length >= 5);
    assert.deepEqual(
      await auditOf(result.imported.map((row: any) => row.publicId)),
      await auditOf(result.bulk.map((row: any) => row.publicId)),
    );
  });

  it('enrollments: seats and wait lists decided in row order, a user already assigned the event, refusals', async () => {
    const result = await bothWays('enrollments', ['user_id', 'event_id', 'attendance_method', 'accept_waitlist'], (w) => {
      const row = (user: number, event: string, method: string, accept = false) => ({
        user_id: w.users[user - 1].public_id,
        event_id: w.events[event].public_id,
        attendance_method: method,
        accept_waitlist: accept,
      });
      return [
        row(1, 'e3', 'in_person'),
        row(2, 'e3', 'in_person'),
        row(4, 'e3', 'in_person', true),
        row(5, 'e3', 'in_person', true),
        row(1, 'e1', 'in_person'),
        row(3, 'e1', 'in_person'),
        row(2, 'e1', 'in_person'),
        row(4, 'e1', 'in_person', true),
        row(5, 'e1', 'in_person', true),
        row(6, 'e1', 'online'),
        row(2, 'e2', 'online'),
        row(6, 'e2', 'online'),
      ];
    });
    assert.deepEqual(outcomes(result.imported), [
      'created',
      'failed full',
      'created',
      'failed waitlist_full',
      'created',
      'created',
      'failed full',
      'created',
      'failed waitlist_full',
      'failed validation_error',
      'created',
      'created',
    ]);
    assert.deepEqual(outcomes(result.imported), outcomes(result.bulk));
    const enrollmentsOf = async (world: World) => {
      const found = [];
      for (const event of Object.values(world.events)) {
        for (const enrollment of (await api.get(`/api/v2/enrollments/?event=${event.public_id}&page_size=100`)).body.data) {
          const user = world.users.findIndex((candidate) => candidate.public_id === enrollment.user.public_id) + 1;
          found.push([label(event.name), `u${user}`, enrollment.attendance_method, enrollment.status, enrollment.state].join(' '));
        }
      }
      return found.sort();
    };
    assert.deepEqual(await enrollmentsOf(result.a), await enrollmentsOf(result.b));
    assert.deepEqual(await assignmentsOf(result.a), await assignmentsOf(result.b));
    assert.deepEqual(await countersOf(result.a), await countersOf(result.b));
    assert.deepEqual(eventsOf(result.events, result.a), eventsOf(result.events, result.b));
    assert.deepEqual(
      await auditOf(result.imported.map((row: any) => row.publicId)),
      await auditOf(result.bulk.map((row: any) => row.publicId)),
    );
  });

  it('users: new users, an email taken before, and one taken in another case', async () => {
    const taken = (await api.post('/api/v2/users/', { email: uniqueEmail('taken'), name: 'Taken' })).body.email as string;
    const [first, second] = [uniqueEmail('new'), uniqueEmail('new')];
    const rows = (tag: string) => [
      { email: `${tag}${first}`, name: 'First', role: 'user', employee_id: 'E1' },
      { email: taken.toUpperCase(), name: 'Again', role: 'user' },
      { email: `${tag}${second}`, name: 'Second', role: 'organizer' },
    ];
    const csv = [
      'email,name,role,employee_id',
      ...rows('a').map((row) => [row.email, row.name, row.role, row.employee_id ?? ''].join(',')),
    ];
    const done = await importCsv('users', csv.join('\n'));
    assert.deepEqual([done.created, done.existing, done.failed], [2, 1, 0]);
    const submitted = await api.post('/api/v2/users/bulk/', { users: rows('b') });
    await waitForJob(api, `/api/v2/users/bulk/${submitted.body.id}/`);
    const view = async (email: string) => {
      const user = (await api.get(`/api/v2/users/?email=${encodeURIComponent(email)}`)).body.data[0];
      return [user.name, user.role, user.employee_id, user.is_active, (await auditOf([user.public_id])).join(' ')].join(' ');
    };
    assert.equal(await view(`a${first}`), await view(`b${first}`));
    assert.equal(await view(`a${second}`), await view(`b${second}`));
    assert.equal(await view(`a${first}`), 'First user E1 true user.created');
  });
});
