import { etagOf, ifNoneMatchHits, type SyncBatchResult } from '@lectern/core';
import { errorBody } from './error-response.ts';

/** What a route handler returns; the app serialises it and adds the common headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** a body that is not JSON (the API reference page and its files), sent as is */
  content?: { type: string; data: string | Buffer };
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const accepted = (body: unknown): Reply => ({ status: 202, body });
export const noContent = (): Reply => ({ status: 204 });
/** A 200 with a body of another media type than JSON. */
export const document = (type: string, data: string | Buffer, headers: Record<string, string> = {}): Reply => ({
  status: 200,
  content: { type, data },
  headers,
});

/**
 * A single resource with its strong ETag; on a read (200), 304 with no body when `If-None-Match`
 * matches. Creates (201) and writes send the tag too, so a client can go straight to If-Match.
 */
export function withEtag(resource: unknown, ifNoneMatch: string | undefined, status = 200): Reply {
  const etag = etagOf(resource);
  if (status === 200 && ifNoneMatchHits(ifNoneMatch, etag)) return { status: 304, headers: { ETag: etag } };
  return { status, body: resource, headers: { ETag: etag } };
}

/**
 * A single resource with both validators: the ETag, and `Last-Modified` (HTTP dates have whole
 * seconds, so the instant is truncated). `If-None-Match` takes precedence over `If-Modified-Since`
 * (RFC 9110 §13.2.2); an unparseable `If-Modified-Since` is ignored.
 */
export function withValidators(
  resource: unknown,
  lastModifiedIso: string,
  conditions: { ifNoneMatch: string | undefined; ifModifiedSince: string | undefined },
): Reply {
  const reply = withEtag(resource, conditions.ifNoneMatch);
  const lastModified = Math.floor(Date.parse(lastModifiedIso) / 1000) * 1000;
  const headers = { ...reply.headers, 'Last-Modified': new Date(lastModified).toUTCString() };
  if (reply.status === 200 && conditions.ifNoneMatch === undefined && conditions.ifModifiedSince !== undefined) {
    const since = Date.parse(conditions.ifModifiedSince);
    if (!Number.isNaN(since) && lastModified <= since) return { status: 304, headers };
  }
  return { ...reply, headers };
}

/**
 * A synchronous batch: 200 when every item succeeded, 207 when some did, 422 when none did. The
 * 422 keeps the batch shape and adds the usual `error` member, so both contracts hold (docs/content.md).
 */
export function batchReply(result: SyncBatchResult, requestId: string): Reply {
  const { succeeded_count: succeeded, failed_count: failed, total } = result.meta;
  if (failed === 0) return ok(result);
  if (succeeded > 0) return { status: 207, body: result };
  const message = `None of the ${total} item${total === 1 ? '' : 's'} succeeded; see data.failed for each item's error.`;
  return { status: 422, body: { ...errorBody('validation_error', message, requestId), ...result } };
}
