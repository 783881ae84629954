import { sql, type Kysely } from 'kysely';
import { foldCase, type ScimStore, type ScimUserState } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { foldedSql } from '../shared/fold-sql.ts';

/** Batches stay well under SQLite's bound-parameter limit. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) result.push(items.slice(i, i + CHUNK));
  return result;
}

export class ScimRepository implements ScimStore {
  constructor(private readonly db: Kysely<Database>) {}

  async userStates(userIds: readonly number[]): Promise<Map<number, ScimUserState>> {
    const states = new Map<number, ScimUserState>();
    for (const ids of chunks(userIds)) {
      const rows = await this.db
        .selectFrom('users')
        .select(['id', 'external_id', 'scim_deleted_at', 'modified'])
        .where('id', 'in', ids)
        .execute();
      for (const row of rows) states.set(row.id, { externalId: row.external_id, deletedAt: row.scim_deleted_at, modified: row.modified });
    }
    return states;
  }

  async setUserState(userId: number, state: Partial<Pick<ScimUserState, 'externalId' | 'deletedAt'>>): Promise<void> {
    const set = {
      ...(state.externalId !== undefined ? { external_id: state.externalId } : {}),
      ...(state.deletedAt !== undefined ? { scim_deleted_at: state.deletedAt } : {}),
    };
    if (Object.keys(set).length > 0) await this.db.updateTable('users').set(set).where('id', '=', userId).execute();
  }

  async groupExternalIds(groupIds: readonly number[]): Promise<Map<number, string | null>> {
    const ids = new Map<number, string | null>();
    for (const chunk of chunks(groupIds)) {
      const rows = await this.db.selectFrom('groups').select(['id', 'external_id']).where('id', 'in', chunk).execute();
      for (const row of rows) ids.set(row.id, row.external_id);
    }
    return ids;
  }

  async setGroupExternalId(groupId: number, externalId: string | null): Promise<void> {
    await this.db.updateTable('groups').set({ external_id: externalId }).where('id', '=', groupId).execute();
  }

  async memberPublicIds(groupIds: readonly number[]): Promise<Map<number, string[]>> {
    const members = new Map<number, string[]>(groupIds.map((id) => [id, []]));
    for (const chunk of chunks(groupIds)) {
      const rows = await this.db
        .selectFrom('group_users as gm')
        .innerJoin('users as u', 'u.id', 'gm.user_id')
        .select(['gm.group_id', 'u.public_id'])
        .where('gm.relation', '=', 'member')
        .where('gm.group_id', 'in', chunk)
        .orderBy('gm.group_id')
        .orderBy('gm.created')
        .orderBy('u.id')
        .execute();
      for (const row of rows) members.get(row.group_id)!.push(row.public_id);
    }
    return members;
  }

  async groupIdByName(name: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('groups as g')
      .select('g.id')
      .where('g.deleted_at', 'is', null)
      .where(foldedSql(sql.ref('g.name')), '=', foldCase(name))
      .executeTakeFirst();
    return row?.id;
  }
}
