import { expressionBuilder } from 'kysely';
import type { Database } from '../schema.ts';

const eb = expressionBuilder<Database, never>();

/**
 * The id of the group with this public id while it is not deleted, as a subquery to compare a link
 * table's `group_id` with: looked up once by the public id's index, after which the link table's
 * group index gives the group's rows. An unknown or deleted group gives no id, so nothing matches.
 */
export const liveGroupId = (publicId: string) =>
  eb.selectFrom('groups as lg').select('lg.id').where('lg.public_id', '=', publicId).where('lg.deleted_at', 'is', null);
