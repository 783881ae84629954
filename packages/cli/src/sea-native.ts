/**
 * Inside the single executable, `require` loads only built-ins, so better-sqlite3 cannot find its
 * addon. The build embeds the addon as an asset; here it is written once to a cache folder named
 * by its hash (atomically, so concurrent starts are safe) and loaded with process.dlopen. The
 * resulting module object is what better-sqlite3 accepts as `nativeBinding`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const SEA_NATIVE_ASSET = 'better_sqlite3.node';

export async function seaNativeBinding(): Promise<unknown | undefined> {
  const sea = await import('node:sea').catch(() => undefined);
  if (!sea || !sea.isSea()) return undefined;
  const asset = Buffer.from(sea.getRawAsset(SEA_NATIVE_ASSET) as ArrayBuffer);
  const hash = createHash('sha256').update(asset).digest('hex').slice(0, 16);
  const base = process.env.LECTERN_CACHE_DIR ?? (process.env.HOME ? join(homedir(), '.cache', 'lectern') : join(tmpdir(), 'lectern'));
  mkdirSync(base, { recursive: true });
  const file = join(base, `better_sqlite3-${hash}.node`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, asset, { mode: 0o755 });
    renameSync(partial, file);
  }
  const module = { exports: {} as unknown };
  process.dlopen(module, file);
  return module.exports;
}
