import { LecternError } from './errors.ts';
import { sha256 } from './sha256.ts';

/**
 * Strong ETag of a resource representation. Hashing what the client sees (not a row version)
 * means the tag also changes when a referenced object's name or email changes.
 */
export function etagOf(representation: unknown): string {
  return etagOfJson(JSON.stringify(representation));
}

/** etagOf a representation from its JSON, for a reply that sends the JSON it hashed. */
export const etagOfJson = (json: string): string => `"${sha256(json, 'base64url').slice(0, 27)}"`;

function parseTagList(header: string): string[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** `If-None-Match` matches when any listed tag (weak comparison) equals the current one. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return parseTagList(header).some((tag) => tag === '*' || strip(tag) === etag);
}

/** Throws 412 when an `If-Match` precondition is sent and no listed tag (strong comparison) matches. */
export function assertIfMatch(header: string | undefined, representation: unknown): void {
  if (header === undefined) return;
  const current = etagOf(representation);
  const tags = parseTagList(header);
  if (tags.some((tag) => tag === '*' || tag === current)) return;
  throw new LecternError(
    'precondition_failed',
    'The resource has changed since it was fetched (If-Match does not match its current ETag). Fetch it again and retry.',
  );
}
