/**
 * Inside the single executable, `require` loads only built-ins, so better-sqlite3 cannot find its
 * addon. The build embeds the addon as an asset; here it is written to a cache folder under a name
 * carrying its hash and loaded with process.dlopen. The resulting module object is what
 * better-sqlite3 accepts as `nativeBinding`.
 *
 * Loading a shared library runs its code, so a file found in the cache is loaded only when its
 * bytes hash to the embedded asset's; anything else under that name is replaced, never loaded.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { singleExecutable } from './sea.ts';

export const SEA_NATIVE_ASSET = 'better_sqlite3.node';

export async function seaNativeBinding(): Promise<unknown | undefined> {
  const sea = singleExecutable();
  if (!sea) return undefined;
  const asset = Buffer.from(sea.getRawAsset(SEA_NATIVE_ASSET) as ArrayBuffer);
  const file = installAddon(asset);
  const module = { exports: {} as unknown };
  process.dlopen(module, file);
  return module.exports;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The cache folders to try, in order; a failure in the last one is fatal. */
function cacheFolderCandidates(env: NodeJS.ProcessEnv = process.env): Array<{ dir: string; private: boolean }> {
  // an operator's explicit choice is the only candidate: falling back would hide their mistake
  if (env.LECTERN_CACHE_DIR) return [{ dir: env.LECTERN_CACHE_DIR, private: false }];
  const candidates = [];
  if (env.HOME) candidates.push({ dir: join(homedir(), '.cache', 'lectern'), private: false });
  // a per-user name in the shared temp folder, used only if this user owns it and nobody else can enter it
  candidates.push({ dir: join(tmpdir(), `lectern-${process.getuid?.() ?? 'user'}`), private: true });
  return candidates;
}

/** Writes the addon into the first usable cache folder (unless a verified copy is there) and returns its path. */
function installAddon(asset: Buffer): string {
  const digest = sha256(asset);
  const candidates = cacheFolderCandidates();
  for (const [index, candidate] of candidates.entries()) {
    try {
      prepareFolder(candidate.dir, candidate.private);
      return writeVerified(join(candidate.dir, `better_sqlite3-${digest.slice(0, 16)}.node`), asset, digest);
    } catch (error) {
      if (index < candidates.length - 1) continue;
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new Error(
        `cannot use ${candidate.dir} as the cache folder for the SQLite addon (${reason}); set LECTERN_CACHE_DIR to a folder this user can write`,
      );
    }
  }
  throw new Error('unreachable: there is always a cache folder candidate');
}

function prepareFolder(dir: string, mustBePrivate: boolean): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!mustBePrivate) return;
  const stats = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid) || (stats.mode & 0o077) !== 0) {
    throw new Error('not a private folder of this user (mode 0700, owned by it)');
  }
}

/** The file at `file` holding exactly `asset`: the existing one if its hash matches, else a fresh atomic write. */
function writeVerified(file: string, asset: Buffer, digest: string): string {
  if (hashOf(file) === digest) return file;
  // a unique temporary name, then rename: concurrent starts never see a half-written file
  const partial = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(partial, asset, { mode: 0o700, flag: 'wx' });
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  if (hashOf(file) !== digest) throw new Error(`the addon written to ${file} does not read back intact`);
  return file;
}

function hashOf(file: string): string | undefined {
  try {
    return sha256(readFileSync(file));
  } catch {
    return undefined;
  }
}
