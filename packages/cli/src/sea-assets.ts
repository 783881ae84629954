/**
 * Inside the single executable there is no node_modules: the API reference page's viewer files
 * travel as assets of the executable (build.mjs) and are read from there.
 */
import type { ViewerFileSource } from '@lectern/http';
import { singleExecutable } from './sea.ts';

export async function seaViewerFiles(): Promise<ViewerFileSource | undefined> {
  const sea = singleExecutable();
  if (!sea) return undefined;
  return (name) => Buffer.from(sea.getRawAsset(name) as ArrayBuffer);
}
