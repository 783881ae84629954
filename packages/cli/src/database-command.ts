/** What the commands that work on a database while the server runs share (`tokens`, `users`). */
import { Option } from 'commander';
import { isLecternError, type Lectern } from '@lectern/core';
import { openLectern } from './open-lectern.ts';

export const dbOption = () =>
  new Option('--db <file|url>', 'SQLite database file (must exist) or postgres:// URL').env('LECTERN_DB').default('./lectern.db');

/** Runs a command against the database, closing it afterwards; domain errors become one line and exit 1. */
export async function withLectern(file: string, work: (lectern: Lectern) => Promise<void>): Promise<void> {
  const lectern = await openLectern(file);
  try {
    await work(lectern);
  } catch (error) {
    if (!isLecternError(error)) throw error;
    const details = error.fieldErrors
      ? Object.entries(error.fieldErrors)
          .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
          .join('; ')
      : '';
    process.stderr.write(`error: ${error.message}${details ? ` (${details})` : ''}\n`);
    process.exitCode = 1;
  } finally {
    await lectern.close();
  }
}
