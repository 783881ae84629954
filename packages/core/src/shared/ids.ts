import { randomBytes } from 'node:crypto';

/**
 * Source of identifiers; injectable so embedders and tests can make ids deterministic.
 *
 * Both kinds begin with the time they were made (docs/api.md): a new row's id then lands at the
 * end of its unique index rather than on a random page of it, which on a large table is the
 * difference between a page written per row and a page written per hundred rows. The time says
 * nothing the resource's own `created` does not; the rest stays random (74 and 80 bits).
 */
export interface IdGenerator {
  /** A public id: a UUID v7 (RFC 9562) in canonical (lower-case, hyphenated) form. */
  uuid(): string;
  /**
   * `prefix` + 26 Crockford base-32 characters, e.g. `msg_…`, `ep_…`: 10 of the time in
   * milliseconds, 16 random (80 bits), so that ids of one prefix sort by when they were made.
   */
  prefixed(prefix: string): string;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// Ids are made on every request (request ids) and every event; drawing a few bytes from the
// kernel each time costs more than the rest of the id, so random bytes are taken in blocks.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function takeRandom(length: number): Buffer {
  if (poolOffset + length > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + length);
  poolOffset += length;
  return bytes;
}

const CROCKFORD_BYTES = Buffer.from(CROCKFORD, 'latin1');

/**
 * Random Crockford base-32 characters. The pool's bytes are used once, so they are mapped to the
 * alphabet where they lie and decoded in one call: a string built a character at a time cost more.
 */
export function randomBase32(length: number): string {
  const bytes = takeRandom(length);
  for (let i = 0; i < length; i++) bytes[i] = CROCKFORD_BYTES[bytes[i]! & 31]!;
  return bytes.toString('latin1');
}

/** A UUID v7: 48 bits of Unix milliseconds, the version, 74 random bits and the variant. */
export function uuidV7(now: number = Date.now()): string {
  const bytes = Buffer.from(takeRandom(16));
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Unix milliseconds as 10 Crockford base-32 characters (50 bits, enough until the year 37 648). */
export function timeBase32(now: number = Date.now()): string {
  let text = '';
  for (let i = 0, rest = now; i < 10; i++, rest = Math.floor(rest / 32)) text = CROCKFORD[rest % 32]! + text;
  return text;
}

export const randomIds: IdGenerator = {
  uuid: () => uuidV7(),
  prefixed: (prefix) => prefix + timeBase32() + randomBase32(16),
};

/**
 * The largest id the API exposes as an integer (locations, timeslots): PostgreSQL's \`integer\`.
 * A larger number can name nothing, and handed to PostgreSQL it is an error, not a miss.
 */
export const MAX_INTEGER_ID = 2_147_483_647;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
