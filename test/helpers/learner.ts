/** A person with role `user` and the scopes that role is granted, as in-process tests act for them. */
import { grantedScopes, type Actor, type Lectern } from '@lectern/core';

export async function createLearner(lectern: Lectern, email: string): Promise<{ publicId: string; actor: Actor }> {
  const view = await lectern.users.create(lectern.context(), { email, name: 'Learner' });
  const record = (await lectern.users.findByEmail(view.email))!;
  const actor: Actor = { kind: 'user', userId: record.id, publicId: view.public_id, role: 'user', scopes: new Set(grantedScopes('user')) };
  return { publicId: view.public_id, actor };
}
