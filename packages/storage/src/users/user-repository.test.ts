import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { randomIds, type Storage } from '@lectern/core';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';

const userRow = (email: string) => ({
  publicId: randomIds.uuid(),
  email,
  name: 'x',
  role: 'user' as const,
  employeeId: null,
  managerId: null,
  isActive: true,
  dateJoined: '2026-01-01T00:00:00.000Z',
});

describe('user repository: email uniqueness', () => {
  let storage: Storage | undefined;
  after(async () => storage?.close());

  // The API accepts ASCII addresses only, but rows can come from elsewhere (imports, older versions).
  it('folds every letter and the composition of an email', async () => {
    storage = await openSqliteStorage({ file: ':memory:' });
    const zoe = await storage.users.insert(userRow('zo\u00eb@example.com'));
    assert.equal((await storage.users.findByEmail('ZOE\u0308@EXAMPLE.COM'))?.id, zoe.id);
    assert.equal((await storage.users.findByEmail('ZO\u00cb@example.com'))?.id, zoe.id);
    await assert.rejects(storage.users.insert(userRow('ZO\u00cb@example.com')), /UNIQUE constraint failed: users\.email_lower/);
    await assert.rejects(storage.users.insert(userRow('zoe\u0308@example.com')), /UNIQUE constraint failed: users\.email_lower/);
  });
});
