/**
 * Where the web console's built files come from: the `@lectern/console` package's dist/ folder
 * (`node packages/console/build.mjs`), or the single executable's assets. Either way the server
 * holds them in memory: the whole console is a few hundred kilobytes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

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

/** The installed `@lectern/console` package's dist/ (the workspace's packages/console/dist). */
export function installedConsoleFiles(): ConsoleFileSource {
  let folder: string | undefined;
  try {
    folder = join(dirname(createRequire(import.meta.url).resolve('@lectern/console/package.json')), 'dist');
  } catch {
    return () => undefined;
  }
  return folderConsoleFiles(folder);
}

/**
 * The console as a list of names and a reader by name (the single executable's assets, listed by
 * the build's manifest.json).
 */
export function listedConsoleFiles(names: readonly string[], read: (name: string) => Buffer): ConsoleFileSource {
  let files: Map<string, Buffer> | undefined;
  return () => (files ??= new Map(names.map((name) => [name, read(name)])));
}
