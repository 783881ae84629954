import { createLectern, type EngineLogger, type Lectern, type LecternConfigInput } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';
import { seaNativeBinding } from './sea-native.ts';

/** Core over the SQLite file, as every command uses it. */
export async function openLectern(file: string, config: LecternConfigInput = {}, logger?: EngineLogger): Promise<Lectern> {
  const nativeBinding = await seaNativeBinding();
  const storage = await openSqliteStorage({ file, ...(nativeBinding ? { nativeBinding } : {}) });
  return createLectern({ storage, config, ...(logger ? { logger } : {}) });
}
