import { randomBytes, randomUUID } from 'node:crypto';

/** Source of identifiers; injectable so embedders and tests can make ids deterministic. */
export interface IdGenerator {
  /** A public id: a UUID v4 in canonical (lower-case, hyphenated) form. */
  uuid(): string;
  /** `prefix` + 26 Crockford base32 characters (130 random bits), e.g. `msg_…`, `ep_…`. */
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

export const randomIds: IdGenerator = {
  uuid: () => randomUUID(),
  prefixed: (prefix) => prefix + randomBase32(26),
};

/**
 * The largest id the API exposes as an integer (locations, timeslots): PostgreSQL's \`integer\`.
 * A larger number can name nothing, and handed to PostgreSQL it is an error, not a miss.
 */
export const MAX_INTEGER_ID = 2_147_483_647;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
