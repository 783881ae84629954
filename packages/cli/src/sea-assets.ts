/**
 * Inside the single executable there is no node_modules: the API reference page's viewer files
 * travel as assets of the executable (build.mjs) and are read from there.
 */
import type { ViewerFileSource } from '@lectern/http';

export async function seaViewerFiles(): Promise<ViewerFileSource | undefined> {
  const sea = await import('node:sea').catch(() => undefined);
  if (!sea || !sea.isSea()) return undefined;
  return (name) => Buffer.from(sea.getRawAsset(name) as ArrayBuffer);
}
