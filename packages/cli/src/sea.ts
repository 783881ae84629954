/**
 * Node's `node:sea` module when this process is the single executable, else undefined (a plain
 * `node` run, or a Node 20 release from before the module existed). It is loaded with require:
 * the executable's main script is compiled from V8's code cache (build.mjs), and such a script
 * has no dynamic import().
 */
import { createRequire } from 'node:module';
import type * as SeaModule from 'node:sea';

type Sea = typeof SeaModule;

export function singleExecutable(): Sea | undefined {
  let sea: Sea;
  try {
    sea = createRequire(import.meta.url)('node:sea') as Sea;
  } catch {
    return undefined;
  }
  return sea.isSea() ? sea : undefined;
}
