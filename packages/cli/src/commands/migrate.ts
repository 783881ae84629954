import { Command, Option } from 'commander';
import { describePostgresUrl, isPostgresUrl } from '@lectern/storage';
import { migrateDatabase } from '../open-lectern.ts';

async function migrate(flags: { db: string }): Promise<void> {
  const applied = await migrateDatabase(flags.db);
  // a PostgreSQL URL may carry a password: it is never printed
  const target = isPostgresUrl(flags.db) ? describePostgresUrl(flags.db) : flags.db;
  if (applied.length === 0) {
    process.stdout.write(`${target} is up to date; no migration applied.\n`);
    return;
  }
  process.stdout.write(`Applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${target}:\n`);
  for (const name of applied) process.stdout.write(`  ${name}\n`);
}

export function migrateCommand(): Command {
  return new Command('migrate')
    .description('Create the database, or upgrade it to this version’s schema, and list the migrations applied')
    .addOption(
      new Option('--db <file|url>', 'SQLite database file (created if missing) or postgres:// URL').env('LECTERN_DB').makeOptionMandatory(),
    )
    .action(migrate);
}
