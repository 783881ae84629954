/**
 * How other areas resolve the users a request names, inside their own transaction: a missing user
 * is a 422 on the field that named it, the same message wherever it happens.
 */
import type { Stores } from '../ports/storage.ts';
import { fieldError } from '../shared/errors.ts';
import type { UserRecord } from './user.ts';

/** The user `publicId` names; 422 on `field` when there is none. */
export async function requireUserReference(stores: Stores, publicId: string, field: string): Promise<UserRecord> {
  const user = await stores.users.findByPublicId(publicId);
  if (!user) throw fieldError(field, 'No user has this public_id.');
  return user;
}

/** The internal ids of the users `publicIds` name, each once; 422 on `field` listing those that do not exist. */
export async function requireUserIds(stores: Stores, publicIds: readonly string[], field: string): Promise<number[]> {
  const known = await stores.users.idsByPublicIds(publicIds);
  const unknown = publicIds.filter((id) => !known.has(id));
  if (unknown.length > 0) throw fieldError(field, `No user has these public_ids: ${unknown.join(', ')}.`);
  return [...new Set(known.values())];
}

/**
 * The internal ids of the users `publicIds` name, by public id, absent for those that do not
 * exist: `known` answers those the caller already looked up in this transaction (an import's
 * chunk resolves its emails first), and one query the rest. Users are never deleted, so an id
 * found earlier in the transaction is still the user's.
 */
export async function userIdsOf(
  stores: Stores,
  publicIds: readonly string[],
  known: ReadonlyMap<string, number> = new Map(),
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const missing: string[] = [];
  for (const publicId of new Set(publicIds)) {
    const id = known.get(publicId);
    if (id === undefined) missing.push(publicId);
    else ids.set(publicId, id);
  }
  if (missing.length > 0) for (const [publicId, id] of await stores.users.idsByPublicIds(missing)) ids.set(publicId, id);
  return ids;
}
