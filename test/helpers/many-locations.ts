/**
 * Many rows for the export tests, written straight to the table in one statement: `Location
 * 000001 <padding>` and on, in order of their ids.
 */
import { queryDatabase } from './database.ts';

export async function insertLocations(dbFile: string, rows: number, padding = ''): Promise<void> {
  const postgres = /^postgres/.test(dbFile);
  await queryDatabase(
    dbFile,
    postgres
      ? `insert into locations (name, timezone, created)
           select 'Location ' || lpad(i::text, 6, '0') || ' ' || ?, 'Europe/Paris', '2026-01-01T00:00:00.000Z'
           from generate_series(1, ${rows}) as i`
      : `insert into locations (name, timezone, created)
           with recursive n(i) as (select 1 union all select i + 1 from n where i < ${rows})
           select printf('Location %06d ', i) || ?, 'Europe/Paris', '2026-01-01T00:00:00.000Z' from n`,
    [padding],
  );
}
