/**
 * Saved reports against the evaluator, resource by resource: for random expressions over each
 * resource's catalogue, the report's results (SQL through the resource's list query) must be
 * exactly the rows of the unfiltered list that the in-memory evaluator accepts, in the order
 * `ordering(...)` asks for. This is what checks each SQL field mapping against the GET shape.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
// the in-memory evaluator is a test oracle, not part of the public API
import { compareByRql, matchesRql, readRqlElements, readRqlPath } from '../../packages/core/src/reports/rql/rql-evaluate.ts';
import {
  compileRql,
  createLectern,
  reportResourceDefinitions,
  reportResources,
  type Clock,
  type Lectern,
  type ReportResource,
  type RequestContext,
  type RqlCatalogue,
  type RqlField,
  type User,
} from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';

/** Time stands still while reports run, and moves an hour per step while the data is seeded. */
let now = Date.UTC(2026, 0, 10, 9);
const clock: Clock = { now: () => new Date(now) };
const tick = () => (now += 3_600_000);

const UNQUOTED = /^[\p{L}\p{N}_.\-:+@][\p{L}\p{N}_.\-:+@ ]*$/u;
const quote = (value: string) => (UNQUOTED.test(value) && !value.endsWith(' ') ? value : value.includes("'") ? `"${value}"` : `'${value}'`);
const star = (value: string) => value.replaceAll('*', '\\*');

/** Values worth comparing a field with: those the data holds, and a few it does not. */
function valuesOf(rows: readonly unknown[], name: string, field: RqlField): unknown[] {
  if (field.type === 'string-array' && field.anyOf)
    return field.anyOf.flatMap((target) => valuesOf(rows, target, { type: 'string-array' }));
  const seen = rows.flatMap((row) => (field.type === 'string-array' ? readRqlElements(row, name) : [readRqlPath(row, name)]));
  return [...new Set(seen.filter((value) => value !== null))];
}

function valueText(field: RqlField, value: unknown): string {
  if (typeof value === 'string') return quote(value);
  return String(value);
}

/** One comparison on one field, in one of the forms docs/rql.md allows. */
function leafArb(catalogue: RqlCatalogue, rows: readonly unknown[]): fc.Arbitrary<string> {
  const leaves = Object.entries(catalogue.fields).map(([name, field]) => {
    const seen = valuesOf(rows, name, field);
    const extra: unknown[] =
      field.type === 'integer'
        ? [-1, 0, 3]
        : field.type === 'number'
          ? [0, 0.5, 4.25]
          : field.type === 'boolean'
            ? [true, false]
            : field.type === 'enum'
              ? [...field.values]
              : [];
    const pool = [...seen, ...extra];
    const forms: fc.Arbitrary<string>[] = [];
    if (pool.length > 0) {
      const value = fc.constantFrom(...pool);
      const ops = ['integer', 'number', 'date', 'datetime', 'string'].includes(field.type)
        ? ['eq', 'ne', 'gt', 'ge', 'lt', 'le']
        : ['eq', 'ne'];
      forms.push(
        fc
          .tuple(fc.constantFrom(...ops), value, fc.boolean())
          .map(([op, v, infix]) => (infix ? `${name}=${op}=${valueText(field, v)}` : `${op}(${name},${valueText(field, v)})`)),
      );
      forms.push(
        fc
          .tuple(fc.constantFrom('in', 'out'), fc.uniqueArray(value, { minLength: 1, maxLength: 3 }))
          .map(([op, vs]) => `${op}(${name},(${vs.map((v) => valueText(field, v)).join(',')}))`),
      );
      if (field.type === 'datetime') {
        forms.push(fc.tuple(fc.constantFrom('gt', 'lt', 'ge'), value).map(([op, v]) => `${op}(${name},${String(v).slice(0, 10)})`));
      }
    }
    const texts = pool.filter((v): v is string => typeof v === 'string');
    if (['string', 'enum', 'uuid', 'string-array'].includes(field.type) && texts.length > 0) {
      const pattern = fc.tuple(fc.constantFrom(...texts), fc.nat(4), fc.nat(3)).map(([text, mode, cut]) => {
        const chars = Array.from(text);
        const head = star(chars.slice(0, cut + 1).join(''));
        const tail = star(chars.slice(-cut - 1).join(''));
        const shapes = [`${head}*`, `*${tail}`, `*${star(chars.slice(1, cut + 2).join(''))}*`, `${head}*${tail}`, star(text)];
        // an empty piece between two stars would be `**`, which is not a pattern
        return shapes[mode]!.replace(/(?<!\\)\*{2,}/g, '*');
      });
      forms.push(
        fc
          .tuple(fc.constantFrom('like', 'ilike'), pattern, fc.boolean())
          .map(([op, p, upper]) => `${op}(${name},${quote(upper ? p.toUpperCase() : p)})`),
      );
    }
    if (field.nullable) forms.push(fc.constantFrom(`eq(${name},null())`, `ne(${name},null())`));
    if (field.type === 'string') forms.push(fc.constantFrom(`eq(${name},empty())`, `${name}=ne=empty()`));
    return fc.oneof(...forms);
  });
  if (catalogue.searchable.length > 0) {
    const words = catalogue.searchable
      .flatMap((name) => valuesOf(rows, name, catalogue.fields[name]!))
      .filter((v): v is string => typeof v === 'string');
    leaves.push(
      fc.tuple(fc.constantFrom(...words), fc.nat(3)).map(
        ([word, start]) =>
          `search=${quote(
            star(
              Array.from(word)
                .slice(start, start + 3)
                .join('')
                .toUpperCase(),
            ) || 'e',
          )}`,
      ),
    );
  }
  return fc.oneof(...leaves);
}

function expressionArb(catalogue: RqlCatalogue, rows: readonly unknown[]): fc.Arbitrary<{ expression: string; ordered: boolean }> {
  const leaf = leafArb(catalogue, rows);
  const { node } = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'report' },
      leaf,
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((children) => `and(${children.join(',')})`),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((children) => `(${children.join('|')})`),
      tie('node').map((child) => `not(${child})`),
    ),
  }));
  const sortable = Object.entries(catalogue.fields)
    .filter(([, field]) => field.type !== 'string-array')
    .map(([name]) => name);
  const ordering = fc.uniqueArray(fc.tuple(fc.constantFrom(...sortable), fc.boolean()), { maxLength: 2, selector: ([name]) => name });
  return fc.tuple(node, ordering).map(([filter, terms]) => ({
    expression: terms.length > 0 ? `${filter},ordering(${terms.map(([name, down]) => `${down ? '-' : ''}${name}`).join(',')})` : filter,
    ordered: terms.length > 0,
  }));
}

describe('saved reports agree with the evaluator on every resource', () => {
  let lectern: Lectern;
  let ctx: RequestContext;
  const lists: Partial<
    Record<ReportResource, (params: Record<string, string>) => Promise<{ data: unknown[]; meta: { total_count: number } }>>
  > = {};

  before(async () => {
    lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }), clock });
    ctx = lectern.context();
    lists.users = (params) => lectern.users.list(ctx, params);
    lists.groups = (params) => lectern.groups.list(ctx, params);
    lists.content_items = (params) => lectern.content.list(ctx, params);
    lists.assignments = (params) => lectern.assignments.list(ctx, params);
    lists.enrollments = (params) => lectern.enrollments.list(ctx, params);
    lists.events = (params) => lectern.scheduledEvents.list(ctx, params);

    const names = ['Ada Lovelace', 'ada', 'Bob', 'Zoë 😀', "O'Brien", '50% off_x', 'Émile', 'grace HOPPER', 'a\\b', 'Yu'];
    const users: User[] = [];
    for (const [i, name] of names.entries()) {
      tick();
      users.push(
        await lectern.users.create(ctx, {
          email: `${name.replace(/[^A-Za-z]/g, '').toLowerCase() || 'x'}${i}@${i % 3 === 0 ? 'Example.com' : 'corp.test'}`,
          name,
          role: (['user', 'organizer', 'admin'] as const)[i % 3],
          employee_id: i % 4 === 0 ? null : `E-${i % 5}`,
          manager: i > 1 && i % 2 === 0 ? users[i >= 6 ? 2 : 0]!.public_id : null,
        }),
      );
    }
    await lectern.users.update(ctx, users[4]!.public_id, { is_active: false });
    const groups = [];
    for (const [i, name] of ['Sales', 'sales team', 'Eng', 'R&D (east)', 'Ops', 'ops'].entries()) {
      tick();
      groups.push(await lectern.groups.create(ctx, { name, source: [null, 'native', 'ldap'][i % 3] }));
    }
    await lectern.groups.changeMembership(ctx, groups[0]!.public_id, 'member', 'add', { member_ids: idsOf(users.slice(0, 4)) });
    await lectern.groups.changeMembership(ctx, groups[2]!.public_id, 'member', 'add', { member_ids: idsOf(users.slice(3, 5)) });
    await lectern.groups.changeMembership(ctx, groups[1]!.public_id, 'owner', 'add', { member_ids: idsOf([users[1], users[7]]) });
    const channel = await lectern.channels.create(ctx, { name: 'Main channel' });
    const types = ['article', 'video', 'course', 'guide', 'link', 'track'] as const;
    const items = [];
    for (const [i, name] of [
      'Intro',
      'intro part 2',
      'Safety, part 2',
      'Deep dive',
      '100% done',
      'Onboarding',
      'Zebra',
      'émigré',
    ].entries()) {
      tick();
      const type = types[i % types.length]!;
      items.push(
        await lectern.content.create(ctx, type, {
          name,
          description: i % 2 ? `About ${name}` : '',
          tags: [['onboarding'], ['safety', 'Onboarding'], [], ['deep']][i % 4],
          // every third item is restricted, some of them only to the group deleted below
          groups: i % 3 === 0 ? idsOf(i === 3 ? [groups[3]] : [groups[i % 2], groups[3]]) : [],
          channel_id: i % 2 === 0 ? channel.public_id : null,
          is_hidden: i === 5,
          duration: i * 10,
          ...(type === 'link' ? { url: 'https://example.com/' } : {}),
        }),
      );
    }
    await lectern.content.bulkSetArchived(ctx, true, { items: [{ public_id: items[6]!.public_id }] });
    await lectern.groups.delete(ctx, groups[3]!.public_id);
    for (const [i, user] of users.entries()) {
      for (const item of [items[i % 5]!, items[(i * 3 + 1) % 5]!]) {
        tick();
        const { assignment, created } = await lectern.assignments.create(ctx, {
          user_id: user.public_id,
          content_item_id: item.public_id,
          due_date: i % 3 === 0 ? null : i % 3 === 1 ? '2026-01-01' : '2027-06-30',
        });
        if (!created) continue;
        const step = (i + item.name.length) % 5;
        if (step === 1)
          await lectern.assignments.progress(ctx, assignment.public_id, {
            progress: 0.25 * (1 + (i % 3)),
            score: i % 2 ? 7.5 : null,
            is_success: i % 2 ? true : null,
          });
        if (step === 2) {
          await lectern.assignments.act(ctx, assignment.public_id, 'complete', {});
          await lectern.assignments.feedback(ctx, assignment.public_id, { rating: 1 + (i % 5) });
        }
        if (step === 3) await lectern.assignments.act(ctx, assignment.public_id, 'drop', { reason: i % 2 ? 'moved' : null });
        if (step === 4) await lectern.assignments.act(ctx, assignment.public_id, 'exempt', {});
      }
    }

    const berlin = await lectern.locations.create(ctx, { name: 'Berlin office', timezone: 'Europe/Berlin' });
    const remote = await lectern.locations.create(ctx, { name: 'Remote', timezone: 'UTC' });
    const weekly = await lectern.eventSeries.create(ctx, { name: 'Weekly sync', duration: 45, is_online: true, tags: ['sync'] });
    const gone = await lectern.eventSeries.create(ctx, { name: 'Retired series' });
    const events = [];
    for (const [i, name] of ['Kick-off', 'kick-off 2', 'Town hall, Q1', 'Workshop', 'Sync 😀'].entries()) {
      tick();
      events.push(
        await lectern.scheduledEvents.create(ctx, {
          name,
          event_series_id: i === 4 ? weekly.public_id : i === 3 ? gone.public_id : null,
          location_id: i === 0 ? berlin.id : i === 2 ? remote.id : null,
          is_local: i !== 4,
          is_online: i % 2 === 0,
          enrollment_limit: i === 1 ? 1 : 0,
          tags: i === 2 ? ['all-hands', 'sync'] : undefined,
          body_markdown: i === 3 ? '# Bring a laptop' : undefined,
          timeslots: [
            {
              starts_at: `2026-0${2 + i}-1${i}T09:00:00Z`,
              duration: ['PT1H', 'PT90M', 'PT45M', 'PT2H', 'PT3H5M'][i],
              rooms_info: i % 2 ? 'Room A' : '',
            },
            ...(i === 2 ? [{ starts_at: '2026-04-20T14:30:00Z', duration: 'PT30M', watch_link: 'https://example.com/live' }] : []),
          ],
        }),
      );
    }
    await lectern.eventSeries.delete(ctx, gone.public_id);
    for (const [i, user] of users.entries()) {
      const event = events[i % events.length]!;
      tick();
      const method = event.is_online && (i % 2 === 1 || !event.is_local) ? 'online' : 'in_person';
      const { enrollment } = await lectern.enrollments.create(ctx, {
        user_id: user.public_id,
        event_id: event.public_id,
        attendance_method: method,
        accept_waitlist: true,
      });
      if (i % 4 === 1 && enrollment.status === 'enrolled') await lectern.enrollments.act(ctx, enrollment.public_id, 'checkin', {});
      if (i % 4 === 2) await lectern.enrollments.act(ctx, enrollment.public_id, 'drop', {});
    }
    tick();
  });
  after(() => lectern.close());

  const idsOf = (rows: readonly any[]) => rows.map((row) => row.public_id as string);

  async function everything<T>(
    list: (params: Record<string, string>) => Promise<{ data: T[]; meta: { total_count: number } }>,
  ): Promise<T[]> {
    const rows: T[] = [];
    for (let page = 1; ; page++) {
      const result = await list({ page: String(page), page_size: '100' });
      rows.push(...result.data);
      if (rows.length >= result.meta.total_count) return rows;
    }
  }

  it('maps every property of every resource to SQL', async () => {
    for (const resource of reportResources) {
      const { catalogue } = reportResourceDefinitions[resource]!;
      for (const [name, field] of Object.entries(catalogue.fields)) {
        // ordering() needs a column; a list is tested through its subquery instead
        const expression = field.type === 'string-array' ? `eq(${name},x)` : `ordering(${name})`;
        const report = await lectern.savedReports.create(ctx, { name: 'mapped', resource, expression });
        await assert.doesNotReject(lectern.savedReports.results(ctx, report.public_id, {}), `${resource}: ${expression}`);
        await lectern.savedReports.delete(ctx, report.public_id);
      }
    }
  });

  for (const resource of reportResources) {
    it(resource, async () => {
      const catalogue = reportResourceDefinitions[resource]!.catalogue;
      const all = await everything(lists[resource]!);
      assert.ok(all.length >= 4, `seeded ${resource}`);
      let split = 0;
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(expressionArb(catalogue, all), async ({ expression, ordered }) => {
          const validated = compileRql(expression, catalogue);
          const expected = all.filter((row) => matchesRql(validated, row));
          const report = await lectern.savedReports.create(ctx, { name: 'check', resource, expression });
          const got = await everything(
            (params) =>
              lectern.savedReports.results(ctx, report.public_id, params) as Promise<{ data: unknown[]; meta: { total_count: number } }>,
          );
          await lectern.savedReports.delete(ctx, report.public_id);
          assert.deepEqual(sorted(idsOf(got)), sorted(idsOf(expected)), expression);
          if (ordered) {
            const keys = (rows: readonly unknown[]) => rows.map((row) => validated.ordering.map(({ field }) => readRqlPath(row, field)));
            const byEvaluator = [...expected].sort(compareByRql(validated.ordering));
            assert.deepEqual(keys(got), keys(byEvaluator), `order of ${expression}`);
          }
          runs++;
          if (expected.length > 0 && expected.length < all.length) split++;
        }),
        { numRuns: 150 },
      );
      assert.ok(split > runs / 5, `only ${split} of ${runs} expressions split the ${resource}`);
    });
  }

  const sorted = (ids: string[]) => [...ids].sort();
});
