/**
 * The web console `lectern serve` answers under /console/: the single executable's own assets, or,
 * run from a checkout (the sources or dist/lectern.cjs), the console built into
 * packages/console/dist. The console is a private package of this repository, not a dependency
 * an installer fetches, so it is found by the checkout's layout rather than resolved by name.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderConsoleFiles, type ConsoleFileSource } from '@lectern/http';
import { seaConsoleFiles } from './sea-assets.ts';

/** packages/console/dist of the checkout this file runs from, looking up from its folder. */
function checkoutConsoleFolder(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'packages/console');
    if (existsSync(join(candidate, 'package.json'))) return join(candidate, 'dist');
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export async function consoleFiles(): Promise<ConsoleFileSource | undefined> {
  const embedded = await seaConsoleFiles();
  if (embedded) return embedded;
  const folder = checkoutConsoleFolder();
  return folder ? folderConsoleFiles(folder) : undefined;
}
