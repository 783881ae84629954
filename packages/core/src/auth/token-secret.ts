import * as crypto from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const TOKEN_PREFIX = 'lpat_';
const SECRET_LENGTH = 43;
const TOKEN_PATTERN = /^lpat_[0-9A-Za-z]{43}$/;

/** `lpat_` + 43 base62 characters (~256 bits), drawn without modulo bias. */
export function generateTokenSecret(): string {
  let out = '';
  while (out.length < SECRET_LENGTH) {
    for (const byte of crypto.randomBytes(64)) {
      if (byte < 248 && out.length < SECRET_LENGTH) out += BASE62[byte % 62];
    }
  }
  return TOKEN_PREFIX + out;
}

export const looksLikeToken = (value: string): boolean => TOKEN_PATTERN.test(value);

/**
 * SHA-256 in hex. Every authenticated request hashes its token: Node's one-shot crypto.hash (from
 * 20.12) does it without building a Hash object, about three times as fast for a token.
 */
const sha256Hex: (data: string) => string =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) => crypto.createHash('sha256').update(data).digest('hex');

/** Only this hash is stored; the token itself is shown once. */
export const hashToken = (token: string): string => sha256Hex(token);

/** The visible part that lets a person recognise a token in a list. */
export const tokenDisplayPrefix = (token: string): string => token.slice(0, TOKEN_PREFIX.length + 6);
