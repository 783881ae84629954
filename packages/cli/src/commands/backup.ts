import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { backupDatabase, requireDatabase } from '../open-lectern.ts';
import { UsageError } from '../usage-error.ts';

async function backup(destination: string, flags: { db: string }): Promise<void> {
  requireDatabase(flags.db);
  // never overwrite: the file in the way may be the only good backup there is
  if (existsSync(destination)) throw new UsageError(`${destination} already exists; choose a new file name`);
  if (!existsSync(dirname(destination))) throw new UsageError(`no folder ${dirname(destination)} to write ${destination} in`);
  const { pages } = await backupDatabase(flags.db, destination);
  process.stdout.write(`Backed up ${flags.db} to ${destination} (${pages} pages).\n`);
}

export function backupCommand(): Command {
  return new Command('backup')
    .description('Write a consistent copy of the database to a new file; safe while the server runs')
    .argument('<out>', 'the new file to write (must not exist)')
    .addOption(new Option('--db <file>', 'SQLite database file (must exist)').env('LECTERN_DB').default('./lectern.db'))
    .action(backup);
}
