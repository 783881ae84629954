import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ViewerFile, ViewerFileSource } from './reference-page.ts';

/** The viewer's files from the installed swagger-ui-dist package, read once each. */
export function installedViewerFiles(): ViewerFileSource {
  const cache = new Map<ViewerFile, Buffer>();
  return (name) => {
    let bytes = cache.get(name);
    if (!bytes) {
      bytes = readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`));
      cache.set(name, bytes);
    }
    return bytes;
  };
}
