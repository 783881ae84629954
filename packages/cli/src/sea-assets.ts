/**
 * Inside the single executable there is no node_modules: the API reference page's viewer files
 * and the web console travel as assets of the executable (build.mjs) and are read from there.
 */
import { listedConsoleFiles, type ConsoleFileSource, type ViewerFileSource } from '@lectern/http';
import { singleExecutable } from './sea.ts';

export async function seaViewerFiles(): Promise<ViewerFileSource | undefined> {
  const sea = singleExecutable();
  if (!sea) return undefined;
  return (name) => Buffer.from(sea.getRawAsset(name) as ArrayBuffer);
}

/** The web console's built files, embedded by build.mjs as `console/<name>` and listed by its manifest. */
export async function seaConsoleFiles(): Promise<ConsoleFileSource | undefined> {
  const sea = singleExecutable();
  if (!sea) return undefined;
  const read = (name: string) => Buffer.from(sea.getRawAsset(`console/${name}`) as ArrayBuffer);
  const manifest = JSON.parse(read('manifest.json').toString('utf8')) as { files: string[] };
  return listedConsoleFiles(manifest.files, read);
}
