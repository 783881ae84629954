import { Command, Option } from 'commander';
import { describePostgresUrl, isPostgresUrl, type CopiedTable } from '@lectern/storage';
import { copyToPostgres } from '../open-lectern.ts';
import { UsageError } from '../usage-error.ts';

async function migrateData(flags: { from: string; to: string }): Promise<void> {
  if (isPostgresUrl(flags.from)) throw new UsageError('--from names the SQLite database file to copy, not a URL');
  if (!isPostgresUrl(flags.to)) throw new UsageError('--to must be a postgres:// or postgresql:// URL');
  const target = describePostgresUrl(flags.to);
  // progress for a person watching; the summary below is what scripts read
  const progress = process.stderr.isTTY ? ({ table, rows }: CopiedTable) => process.stderr.write(`  ${table}: ${rows} rows\n`) : () => {};
  process.stderr.write(`Copying ${flags.from} to ${target} in one transaction…\n`);
  const copied = await copyToPostgres(flags.from, flags.to, progress);
  const total = copied.reduce((sum, { rows }) => sum + rows, 0);
  const width = Math.max(...copied.map(({ table }) => table.length));
  process.stdout.write(`Copied ${total} rows in ${copied.length} tables from ${flags.from} to ${target}:\n`);
  for (const { table, rows } of copied) process.stdout.write(`  ${table.padEnd(width)}  ${rows}\n`);
}

export function migrateDataCommand(): Command {
  return new Command('migrate-data')
    .description(
      'Copy a SQLite database into an empty PostgreSQL database, in one transaction; both are first brought to this version’s schema',
    )
    .addOption(new Option('--from <file>', 'the SQLite database file to copy (must exist)').makeOptionMandatory())
    .addOption(new Option('--to <url>', 'the empty PostgreSQL database: postgres://user:password@host:port/database').makeOptionMandatory())
    .action(migrateData);
}
