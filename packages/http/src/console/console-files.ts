/**
 * Where the web console's built files come from: a folder (packages/console/dist, written by
 * `node packages/console/build.mjs`), or the single executable's assets. The command line picks
 * one (packages/cli/src/console-files.ts); an app created without any serves no console. Either
 * way the server holds the files in memory: the whole console is a few hundred kilobytes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The console's files by their path under /console/ (`index.html`, `main-ABC123.js`), or undefined when it is not built. */
export type ConsoleFileSource = () => ReadonlyMap<string, Buffer> | undefined;

/** The built console in `folder` (every file under it), read once. */
export function folderConsoleFiles(folder: string): ConsoleFileSource {
  let files: Map<string, Buffer> | undefined;
  return () => {
    if (files) return files;
    if (!existsSync(join(folder, 'index.html'))) return undefined;
    files = new Map();
    for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      files.set(relative(folder, file).split(sep).join('/'), readFileSync(file));
    }
    return files;
  };
}

/**
 * The console as a list of names and a reader by name (the single executable's assets, listed by
 * the build's manifest.json).
 */
export function listedConsoleFiles(names: readonly string[], read: (name: string) => Buffer): ConsoleFileSource {
  let files: Map<string, Buffer> | undefined;
  return () => (files ??= new Map(names.map((name) => [name, read(name)])));
}
