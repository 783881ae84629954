/**
 * For the storage tests that play a server's request thread and background thread with two
 * storages on one database (packages/storage/src/giving-way.test.ts and the drivers' own files).
 */
import { randomIds } from '@lectern/core';
import type { Stores } from '@lectern/core';
import type { KyselyStorage } from '../../packages/storage/src/kysely-storage.ts';

/** A user named by its email, the one row these tests write. */
export const addUser = (tx: Stores, email: string) =>
  tx.users.insert({
    publicId: randomIds.uuid(),
    email,
    name: email,
    role: 'user',
    employeeId: null,
    managerId: null,
    isActive: true,
    dateJoined: '2026-01-01T00:00:00.000Z',
  });

/** Every user's email, in order: what was committed. */
export const emailsOf = async (storage: KyselyStorage) =>
  (await storage.db.selectFrom('users').select('email').orderBy('email').execute()).map((user) => user.email);

/** A promise and the function that settles it. */
export function signal(): [Promise<void>, () => void] {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return [settled, settle];
}
