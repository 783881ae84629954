import type { Clock } from '@lectern/core';
import { errorBody } from '../error-response.ts';
import { exportFormatOf, exportList } from '../export/list-export.ts';
import { conditionalRead, type Reply } from '../reply.ts';
import type { RouteTable } from '../router.ts';
import type { ConsolePages } from '../routes/console.ts';
import type { ScimApi } from '../routes/scim.ts';
import type { Exchange } from './pipeline.ts';

export interface Destinations {
  routes: RouteTable;
  consoleFiles: ConsolePages;
  scim: ScimApi;
  clock: Clock;
  /** an export that failed after its first byte: the connection is cut, and the cause reported here */
  onExportError: (error: unknown) => void;
}

/**
 * The last step: the console's files, SCIM, or the API's route table (a list as a whole file with
 * `format=csv|ndjson`); then `If-None-Match`/`If-Modified-Since` against the reply, or 404.
 */
export const dispatch =
  ({ routes, consoleFiles, scim, clock, onExportError }: Destinations) =>
  async (exchange: Exchange): Promise<Reply> => {
    const { request } = exchange;
    const state = exchange.state!;
    const pathname = state.path!;
    let matched: Reply | undefined;
    // the console's files are a folder, not API routes: answered beside the route table
    if (consoleFiles.serves(pathname)) {
      state.route = '/console';
      matched = consoleFiles.answer(request.method, pathname, state.query.toString(), state.header('accept-encoding'));
    } else if (scim.serves(pathname)) {
      // identity providers' provisioning: not the API, answered in SCIM's own terms (routes/scim.ts)
      matched = await scim.answer(request.method, pathname, state);
    } else {
      const read = () => routes.dispatchPath(request.method, pathname, state);
      const format = exportFormatOf(request.method, state.query);
      matched = format
        ? await exportList({
            format,
            query: state.query,
            read,
            route: () => state.route,
            spec: () => state.spec,
            clock,
            onError: onExportError,
          })
        : await read();
    }
    if (!matched) {
      return { status: 404, body: errorBody('not_found', `No route matches ${request.method} ${pathname}.`, exchange.requestId) };
    }
    return conditionalRead(request.method, matched, {
      ifNoneMatch: state.header('if-none-match'),
      ifModifiedSince: state.header('if-modified-since'),
    });
  };
