/**
 * `format=csv|ndjson` on every list route: the route runs as it would for a page, once per batch
 * of rows, and the batches are written to the client as they are read. Storage reads each batch
 * after the last row of the one before in the list's order (core's shared/list-batch.ts), so a
 * list needs no code of its own to be exported, and gets exactly its page's scopes, filters,
 * search, ordering and visibility. Lists read by cursor (webhook deliveries, the audit log) are
 * followed cursor by cursor. The response is pulled batch by batch as the connection drains: a
 * client that stops reading stops the reads, and the server holds a few batches at most. Storage
 * may read the batches elsewhere (SQLite: on a read thread, four batches a read, so this thread
 * only encodes and writes) or hold the rest of the list open for them (PostgreSQL: a cursor),
 * which the export closes.
 */
import { badRequest, inListBatch, MAX_PAGE_SIZE, todayUtc, type Clock, type ListBatch } from '@lectern/core';
import type { z } from 'zod';
import type { OperationSpec } from '../operation-spec.ts';
import type { Reply } from '../reply.ts';
import { exportFormats, mediaTypes, rowEncoder, type ExportFormat } from './export-rows.ts';

/**
 * Rows per read: enough that a read's own cost (the route, its query) is small beside its rows,
 * few enough that a batch's objects die young. Measured on 100 000 assignments: batches of 1 000
 * lived through collections of the young generation, were promoted, and grew the server by
 * 140 MB before a full collection; batches of 500 by 62 MB, which 250 did not improve.
 */
export const EXPORT_BATCH_ROWS = 500;

/**
 * Rows per written chunk: a string over about 128 KB is allocated where only a full collection
 * frees it; a hundred rows' text stays small and dies young.
 */
const CHUNK_ROWS = 100;

/** The export format a request asks for; undefined for an ordinary reply (`format=json` or none). */
export function exportFormatOf(method: string, query: URLSearchParams): ExportFormat | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const format = query.get('format');
  if (format === null || format === '' || format === 'json') return undefined;
  if ((exportFormats as readonly string[]).includes(format)) return format as ExportFormat;
  throw badRequest(`Query parameter 'format' must be one of: json, ${exportFormats.join(', ')}.`);
}

/** The item a list route declares it returns (its OpenAPI response), which names the CSV columns. */
function itemSchemaOf(spec: OperationSpec | undefined): z.ZodType | undefined {
  return spec?.response.list ? spec.response.schema : undefined;
}

type Item = Record<string, unknown>;
interface ListBody {
  data: Item[];
  meta?: { page?: number; page_size?: number; total_count?: number; next_cursor?: string | null };
}

const listBody = (reply: Reply | undefined): ListBody | undefined => {
  const body = reply?.body as ListBody | undefined;
  return reply?.status === 200 && body !== null && typeof body === 'object' && Array.isArray(body.data) ? body : undefined;
};

/** `/api/v2/groups/:id/members` → `groups-members`: the file name's resource. */
export const resourceOfRoute = (route: string): string =>
  route
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith(':') && !/^(api|public_api|v\d+)$/.test(segment))
    .join('-') || 'export';

export interface ExportRequest {
  format: ExportFormat;
  query: URLSearchParams;
  /** runs the route (its handler, as for a page); undefined when no route matches */
  read: () => Promise<Reply | undefined>;
  /** the route pattern matched, known once `read` ran */
  route: () => string | undefined;
  /** what the matched route declares, known once `read` ran */
  spec: () => OperationSpec | undefined;
  /** gives the date in the file name */
  clock: Clock;
  /** told of an error after the first byte, when only cutting the connection can report it */
  onError: (error: unknown) => void;
}

/**
 * Reads the first batch, so that everything a list refuses (its parameters, the caller's rights,
 * a report that does not exist) is the usual error reply, then answers with a stream of the rest.
 * A route that does not answer a list (a single resource) replies as it would without `format`.
 */
export async function exportList(request: ExportRequest): Promise<Reply | undefined> {
  const { query, read } = request;
  const batch: ListBatch = { size: EXPORT_BATCH_ROWS, after: null, next: null, taken: false, read: false };
  let reply = await inListBatch(batch, read);
  let body = listBody(reply);
  if (!body) return reply;

  /** what the next read needs of the last one: how many rows it had, and its cursor */
  let last = { rows: 0, cursor: undefined as string | null | undefined };
  let next: () => Promise<ListBody | undefined>;
  if (batch.taken && batch.read) {
    next = async () => {
      if (last.rows < batch.size || batch.next === null) return undefined;
      batch.after = batch.next;
      return listBody(await inListBatch(batch, read));
    };
  } else if (body.meta?.next_cursor !== undefined) {
    // a cursor list: from its first row, at the largest page, cursor by cursor
    query.delete('cursor');
    query.set('page_size', String(MAX_PAGE_SIZE));
    next = async () => {
      if (!last.cursor) return undefined;
      query.set('cursor', last.cursor);
      // in the batch, which the list never takes, so storage knows the read is an export's
      return listBody(await inListBatch(batch, read));
    };
    body = listBody((reply = await read()));
  } else {
    // a list not read through the list builder: page by page, in its stable order
    query.set('page_size', String(MAX_PAGE_SIZE));
    let page = 1;
    next = async () => {
      if (last.rows < MAX_PAGE_SIZE) return undefined;
      query.set('page', String(++page));
      return listBody(await read());
    };
    query.set('page', '1');
    body = listBody((reply = await read()));
  }
  if (!body) return reply;

  const encoder = rowEncoder(request.format);
  let rows: ListBody | undefined = body;
  body = undefined;
  /** the next batch, asked for before the current one is written */
  let following: Promise<ListBody | undefined> | undefined;
  async function* chunks(): AsyncGenerator<string> {
    try {
      const header = encoder.start(rows!.data, itemSchemaOf(request.spec()));
      if (header !== '') yield header;
      while (rows !== undefined) {
        const { data, meta } = rows;
        last = { rows: data.length, cursor: meta?.next_cursor };
        rows = undefined;
        // the next batch is read (on a read thread, by the database) while this one is encoded and
        // written: one batch ahead at most. Its failure is met where it is awaited, below.
        let ready = false;
        following = next();
        following.then(
          () => (ready = true),
          () => undefined,
        );
        // the whole batch is encoded at once, so its items are garbage before the first write waits
        const texts: string[] = [];
        for (let at = 0; at < data.length; at += CHUNK_ROWS) texts.push(encoder.encode(data.slice(at, at + CHUNK_ROWS)));
        yield* texts;
        // a batch storage already held (rows read ahead) is ready by now: other requests get a
        // turn before it is written, as they do while a batch is being read
        if (ready) await new Promise((turn) => setImmediate(turn));
        rows = await following;
      }
    } catch (error) {
      request.onError(error);
      throw error;
    } finally {
      // what storage holds open for the batches (a cursor's connection) goes with the export, once
      // a read still under way (one that may be opening it) has settled
      await following?.catch(() => undefined);
      await batch.held?.close();
    }
  }
  const ext = request.format === 'csv' ? 'csv' : 'ndjson';
  const filename = `${resourceOfRoute(request.route() ?? '')}-${todayUtc(request.clock)}.${ext}`;
  return {
    status: 200,
    headers: { 'Content-Disposition': `attachment; filename="${filename}"` },
    stream: { type: mediaTypes[request.format], chunks: chunks() },
  };
}

/** An export's chunks as a WHATWG stream, pulled as the reader asks (back-pressure). */
export function readableOf(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
