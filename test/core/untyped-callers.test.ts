/**
 * Core as plain JavaScript calls it: no compiler holds the arguments to their types, so every
 * wrong one must come back as a `validation_error` naming it, never a TypeError or a silent no-op,
 * and query values may be numbers and booleans where a URL would carry their text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contentTypes, createLectern, isLecternError, type Lectern } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';

/** Calls `service[method]` with whatever arguments, as an untyped caller can (awaited: a refusal may be thrown at once). */
async function untyped(service: object, method: string, ...args: unknown[]): Promise<unknown> {
  return await (Reflect.get(service, method) as (...args: unknown[]) => Promise<unknown>).apply(service, args);
}

/** The field errors of the validation_error the call fails with. */
async function fieldErrorsOf(call: Promise<unknown>): Promise<Record<string, string[]>> {
  try {
    await call;
  } catch (error) {
    assert.ok(isLecternError(error), `expected a LecternError, got ${String(error)}`);
    assert.equal(error.code, 'validation_error', error.message);
    return error.fieldErrors ?? {};
  }
  assert.fail('the call succeeded');
}

describe('core called from plain JavaScript', () => {
  let lectern: Lectern;
  const app = () => lectern.context();
  before(async () => {
    lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }) });
    for (let i = 0; i < 7; i++) await lectern.users.create(app(), { email: `user${i}@example.com`, name: `User ${i}` });
  });
  after(() => lectern.close());

  it('refuses a group relation or membership operation it does not know, and changes nothing', async () => {
    const group = await lectern.groups.create(app(), { name: 'Readers' });
    const user = (await lectern.users.list(app(), {})).data[0]!;
    const body = { member_ids: [user.public_id] };
    assert.deepEqual(await fieldErrorsOf(untyped(lectern.groups, 'changeMembership', app(), group.public_id, 'members', 'add', body)), {
      relation: ['Must be one of: member, owner.'],
    });
    assert.deepEqual(await fieldErrorsOf(untyped(lectern.groups, 'changeMembership', app(), group.public_id, 'member', 'append', body)), {
      op: ['Must be one of: add, remove, replace.'],
    });
    assert.equal((await lectern.groups.get(app(), group.public_id)).member_count, 0);
    // the valid spelling works
    assert.equal((await lectern.groups.changeMembership(app(), group.public_id, 'member', 'add', body)).member_count, 1);
  });

  it('refuses a content type it does not know, on every method that takes one', async () => {
    const expected = { type: [`Must be one of: ${contentTypes.join(', ')}.`] };
    assert.deepEqual(await fieldErrorsOf(untyped(lectern.content, 'create', app(), 'podcast', { name: 'Episode 1' })), expected);
    assert.deepEqual(await fieldErrorsOf(untyped(lectern.content, 'listOfType', app(), 'podcast', {})), expected);
    const article = await lectern.content.create(app(), 'article', { name: 'Intro' });
    assert.deepEqual(await fieldErrorsOf(untyped(lectern.content, 'getOfType', app(), 'podcast', article.public_id)), expected);
    assert.deepEqual(
      await fieldErrorsOf(untyped(lectern.content, 'updateOfType', app(), 'podcast', article.public_id, { name: 'x' })),
      expected,
    );
    assert.deepEqual(await fieldErrorsOf(untyped(lectern.content, 'changeTags', app(), article.public_id, 'set', { tags: ['a'] })), {
      op: ['Must be one of: add, remove, replace.'],
    });
    assert.equal((await lectern.content.get(app(), article.public_id)).name, 'Intro');
  });

  it('refuses an action or insight it does not know', async () => {
    const fields = async (service: object, method: string, ...args: unknown[]) =>
      Object.keys(await fieldErrorsOf(untyped(service, method, app(), ...args)));
    assert.deepEqual(await fields(lectern.assignments, 'act', '00000000-0000-4000-8000-000000000000', 'finish'), ['action']);
    assert.deepEqual(await fields(lectern.enrollments, 'act', '00000000-0000-4000-8000-000000000000', 'attend'), ['action']);
    assert.deepEqual(await fields(lectern.insights, 'get', 'popularity', {}), ['kind']);
  });

  it('reads numbers and booleans in list queries as their text, and refuses other values by name', async () => {
    const page = await lectern.users.list(app(), { page_size: 5, page: 2 });
    assert.equal(page.meta.page_size, 5);
    assert.equal(page.data.length, 2, 'seven users: five on the first page, two on the second');
    assert.equal((await lectern.users.list(app(), { is_active: true })).meta.total_count, 7);
    assert.equal((await lectern.users.list(app(), { is_active: false })).meta.total_count, 0);
    assert.equal((await lectern.users.list(app(), { page_size: null })).meta.page_size, 25, 'null is a parameter not given');
    assert.deepEqual(await fieldErrorsOf(untyped(lectern.users, 'list', app(), { page_size: [5] })), {
      page_size: ['Must be text, a number or true/false.'],
    });
    assert.deepEqual(await fieldErrorsOf(untyped(lectern.users, 'list', app(), { role: { admin: true } })), {
      role: ['Must be text, a number or true/false.'],
    });
  });
});
