import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.ts';

/**
 * `content_items.has_access_groups`: whether an item has access groups, kept by triggers on
 * `content_groups` in the same transaction as the rows (docs/scaling.md, "Search"). A learner's
 * visibility check then looks up the item's groups only for restricted items, instead of asking
 * for every item whether it has any.
 *
 * On SQLite, two narrow indexes hold every column that a search for a common term reads: such a
 * term is checked row by row (commonSearch), and reading an index entry costs a fraction of reading
 * the table's row. `content_items_search_scan_idx` serves the admin's list, every live item;
 * `content_items_listed_search_idx` a learner's, only the items neither hidden nor archived.
 * PostgreSQL answers such a term from its trigram indexes and gets neither.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('content_items')
    .addColumn('has_access_groups', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await sql`update content_items set has_access_groups = 1 where id in (select content_id from content_groups)`.execute(db);
  if (isPostgres(db)) {
    await sql`create function lectern_content_groups_changed() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update content_items set has_access_groups = 1 where id = new.content_id and has_access_groups = 0;
        else
          update content_items
            set has_access_groups = case when exists (select 1 from content_groups where content_id = old.content_id) then 1 else 0 end
            where id = old.content_id;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger content_groups_changed after insert or delete on content_groups
      for each row execute function lectern_content_groups_changed()`.execute(db);
    return;
  }
  await sql`create trigger content_groups_inserted after insert on content_groups begin
    update content_items set has_access_groups = 1 where id = new.content_id and has_access_groups = 0;
  end`.execute(db);
  await sql`create trigger content_groups_deleted after delete on content_groups begin
    update content_items
      set has_access_groups = exists (select 1 from content_groups where content_id = old.content_id)
      where id = old.content_id;
  end`.execute(db);
  await sql`create index content_items_search_scan_idx on content_items (name_folded, deleted_at)`.execute(db);
  // every column the learner's query reads, the partial index's own included, so the scan stays in the index
  await sql`create index content_items_listed_search_idx
    on content_items (name_folded, has_access_groups, deleted_at, is_hidden, is_archived)
    where deleted_at is null and is_hidden = 0 and is_archived = 0`.execute(db);
}
