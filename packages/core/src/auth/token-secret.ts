import * as crypto from 'node:crypto';
import { sha256 } from '../shared/sha256.ts';

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

/** Only this hash (SHA-256 in hex) is stored; the token itself is shown once. */
export const hashToken = (token: string): string => sha256(token, 'hex');

/** The visible part that lets a person recognise a token in a list. */
export const tokenDisplayPrefix = (token: string): string => token.slice(0, TOKEN_PREFIX.length + 6);
