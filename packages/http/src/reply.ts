import { etagOfJson, ifNoneMatchHits } from '@lectern/core';

/** What a route handler returns; the app serialises it and adds the common headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** `body` already serialised (withEtag hashes it), so it is not serialised again */
  json?: string;
  /** a body that is not JSON (the API reference page and its files), sent as is */
  content?: { type: string; data: string | Buffer };
  /** a body written as it is produced (an export), pulled only as fast as the client reads */
  stream?: { type: string; chunks: AsyncIterable<string> };
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
 * A single resource with its strong ETag. Creates (201) and writes send the tag too, so a client
 * can go straight to If-Match; on a read the app answers If-None-Match with it (conditionalRead).
 */
export function withEtag(resource: unknown, status = 200): Reply {
  // the reply sends the JSON the tag was made from: serialised once, not twice
  const json = JSON.stringify(resource);
  return { status, body: resource, json, headers: { ETag: etagOfJson(json) } };
}

/**
 * A single resource with both validators: the ETag, and `Last-Modified` (HTTP dates have whole
 * seconds, so the instant is truncated).
 */
export function withValidators(resource: unknown, lastModifiedIso: string): Reply {
  const reply = withEtag(resource);
  const lastModified = Math.floor(Date.parse(lastModifiedIso) / 1000) * 1000;
  return { ...reply, headers: { ...reply.headers, 'Last-Modified': new Date(lastModified).toUTCString() } };
}

/**
 * The one step that answers a conditional read: a GET or HEAD whose reply carries validators is a
 * 304 without a body when `If-None-Match` matches its ETag or, without `If-None-Match`, when it has
 * not changed since `If-Modified-Since` (which takes second place, RFC 9110 §13.2.2; an
 * unparseable date is ignored).
 */
export function conditionalRead(
  method: string,
  reply: Reply,
  conditions: { ifNoneMatch: string | undefined; ifModifiedSince: string | undefined },
): Reply {
  const etag = reply.headers?.ETag;
  if ((method !== 'GET' && method !== 'HEAD') || reply.status !== 200 || etag === undefined) return reply;
  const lastModified = reply.headers?.['Last-Modified'];
  const validators = { ETag: etag, ...(lastModified ? { 'Last-Modified': lastModified } : {}) };
  if (conditions.ifNoneMatch !== undefined)
    return ifNoneMatchHits(conditions.ifNoneMatch, etag) ? { status: 304, headers: validators } : reply;
  if (conditions.ifModifiedSince === undefined || lastModified === undefined) return reply;
  const since = Date.parse(conditions.ifModifiedSince);
  return !Number.isNaN(since) && Date.parse(lastModified) <= since ? { status: 304, headers: validators } : reply;
}
