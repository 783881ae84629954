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
