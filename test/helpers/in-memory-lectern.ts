import { createLectern, type Lectern } from '@lectern/core';
import { openSqliteStorage, type KyselyStorage } from '@lectern/storage';

/** A started Lectern on an in-memory SQLite database: core in process, through real storage. */
export async function startInMemoryLectern(): Promise<{ storage: KyselyStorage; lectern: Lectern }> {
  const storage = await openSqliteStorage({ file: ':memory:' });
  const lectern = createLectern({ storage });
  await lectern.start();
  return { storage, lectern };
}
