import type { ErrorCode } from '@lectern/core';

/**
 * The app works on plain request/response objects: building WHATWG Request/Response objects per
 * call costs most of the throughput of a small JSON API on node:http, so the node server hands
 * over these, and the fetch-style handler for embedders converts at its own edge.
 */
export interface PlainRequest {
  method: string;
  /** the request target as sent: path and query (`/api/v2/users/?page=2`); anything else is a 400 */
  url: string;
  /** header names lower-cased */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer | null;
  /** set when the body exceeded the limit and was not read to the end */
  bodyTooLarge?: boolean;
  /**
   * the body unread, for a route that takes it as a stream (a CSV upload): `body` is then null,
   * and the route reads it with its own size limit (RouteContext.bodyStream)
   */
  bodyStream?: AsyncIterable<Buffer>;
  remoteAddress: string;
}

export interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  /** serialised JSON (or a page and its files, for the API reference), null for 204/304 */
  body: string | Buffer | null;
  /**
   * A body produced as it is sent (an export; `body` is then null): the server writes a chunk,
   * and pulls the next only once the connection has taken it (back-pressure).
   */
  stream?: AsyncIterable<string>;
}

export const MAX_BODY_BYTES = 1024 * 1024;

export function headerValue(headers: PlainRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A request refused before it reached the pipeline: unparseable, too slow, or missing `Host`. */
export interface Refusal {
  code: ErrorCode;
  message: string;
  /** what went wrong, for the log (the parser's error code, `timeout`, …) */
  reason: string;
  remoteAddress: string;
  /** the request's method and headers, when they were read */
  method?: string;
  headers?: PlainRequest['headers'];
}
