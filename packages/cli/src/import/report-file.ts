/**
 * Where a run writes its report. An earlier report is never overwritten silently: without
 * `--force` the run takes the first free name of `<name>-1.csv`, `<name>-2.csv`, … beside it.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';

export interface ReportFile {
  path: string;
  handle: FileHandle;
}

/** Opens (creates) the report file before anything is sent; rejects when it cannot be written. */
export async function openReportFile(wanted: string, force: boolean): Promise<ReportFile> {
  if (force) return { path: wanted, handle: await open(wanted, 'w') };
  const ext = extname(wanted);
  const stem = join(dirname(wanted), basename(wanted, ext));
  for (let n = 0; ; n++) {
    const path = n === 0 ? wanted : `${stem}-${n}${ext}`;
    try {
      return { path, handle: await open(path, 'wx') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 10_000) throw error;
    }
  }
}

export const sameFile = (a: string, b: string): boolean => resolve(a) === resolve(b);
