/**
 * Standard Webhooks signing (docs/webhooks.md): the sender signs `{id}.{timestamp}.{raw body}` with
 * HMAC-SHA256 keyed by the base64-decoded secret; receivers verify with `verifyWebhook`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 24;
const SIGNATURE_VERSION = 'v1';
export const DEFAULT_TOLERANCE_SECONDS = 300;

// Buffer.from(…, 'base64') silently skips invalid characters, so a mistyped secret would sign with
// the wrong key instead of failing; insist on the standard alphabet. Padding is optional, as in the
// reference libraries (secrets are often copied without it); a lone trailing character carries no
// whole byte, so that length is refused rather than silently dropped.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/** The request is not authentic (or not fresh): reject it. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * The request is authentic but its body is not JSON. Distinct from WebhookVerificationError so a
 * receiver does not report a sender's malformed payload as a forgery.
 */
export class WebhookPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookPayloadError';
  }
}

/** `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The HMAC key inside a secret; the `whsec_` prefix is optional so receivers may paste either form. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  // A bad secret is a configuration mistake, not a forged request, hence not a WebhookVerificationError.
  if (encoded.length === 0 || !BASE64.test(encoded)) {
    throw new TypeError('Invalid webhook secret: expected "whsec_" followed by base64.');
  }
  return Buffer.from(encoded, 'base64');
}

function unixSeconds(timestamp: number | Date): number {
  const seconds = typeof timestamp === 'number' ? timestamp : Math.floor(timestamp.getTime() / 1000);
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new TypeError('Invalid webhook timestamp: expected whole Unix seconds.');
  }
  return seconds;
}

export interface SignInput {
  secret: string;
  /** The event id (`msg_…`), sent as `webhook-id`. */
  id: string;
  /** Unix seconds, or a Date (truncated to seconds). */
  timestamp: number | Date;
  /** The exact bytes that go on the wire; re-serialising JSON would break the signature. */
  body: string | Uint8Array;
}

/** Bare base64 digest, shared by signing and verification so both compute it identically. */
function digest(key: Buffer, id: string, seconds: number, body: string | Uint8Array): string {
  return createHmac('sha256', key).update(`${id}.${seconds}.`).update(body).digest('base64');
}

/** `v1,<base64 HMAC-SHA256>` for the `webhook-signature` header. */
export function signWebhook({ secret, id, timestamp, body }: SignInput): string {
  return `${SIGNATURE_VERSION},${digest(secretKey(secret), id, unixSeconds(timestamp), body)}`;
}

// A type alias rather than an interface so it stays assignable to header records.
export type WebhookSignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** The three headers of one delivery attempt. */
export function webhookHeaders(input: SignInput): WebhookSignatureHeaders {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(unixSeconds(input.timestamp)),
    'webhook-signature': signWebhook(input),
  };
}

/** A fetch `Headers`, or a plain object such as Node's `IncomingHttpHeaders` (any key case). */
export type HeaderSource =
  { get(name: string): string | null | undefined } | Readonly<Record<string, string | readonly string[] | undefined>>;

function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null | undefined }).get(name) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== name) continue;
    if (typeof value === 'string') return value;
    // Repeated signature headers each carry candidates; joining keeps them all in play.
    if (Array.isArray(value)) return value.join(' ');
  }
  return undefined;
}

export interface VerifyOptions {
  /** Maximum distance between the signed timestamp and now, either way. Default 300. */
  toleranceSeconds?: number;
  /** Current time (Date, or epoch milliseconds); defaults to the system clock. */
  now?: Date | number;
}

/**
 * Checks a delivery's signature over the raw request body and the freshness of its timestamp,
 * without parsing the body. Throws WebhookVerificationError when the request must be rejected.
 */
export function verifyWebhookSignature(
  secret: string,
  headers: HeaderSource,
  rawBody: string | Uint8Array,
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now }: VerifyOptions = {},
): void {
  const key = secretKey(secret);
  const id = readHeader(headers, 'webhook-id');
  const timestampHeader = readHeader(headers, 'webhook-timestamp');
  const signatureHeader = readHeader(headers, 'webhook-signature');
  if (!id || !timestampHeader || !signatureHeader) {
    const missing = Object.entries({ 'webhook-id': id, 'webhook-timestamp': timestampHeader, 'webhook-signature': signatureHeader })
      .filter(([, value]) => !value)
      .map(([name]) => name);
    throw new WebhookVerificationError(`Missing required header(s): ${missing.join(', ')}.`);
  }

  const trimmedTimestamp = timestampHeader.trim();
  if (!/^\d{1,15}$/.test(trimmedTimestamp)) {
    throw new WebhookVerificationError('Invalid webhook-timestamp header: expected whole Unix seconds.');
  }
  const timestamp = Number(trimmedTimestamp);
  const nowMs = now === undefined ? Date.now() : typeof now === 'number' ? now : now.getTime();
  const nowSeconds = Math.floor(nowMs / 1000);
  // Replay protection: a captured delivery stops verifying once it leaves the window.
  if (timestamp < nowSeconds - toleranceSeconds) {
    throw new WebhookVerificationError(`Message timestamp is too old (more than ${toleranceSeconds} s in the past).`);
  }
  if (timestamp > nowSeconds + toleranceSeconds) {
    throw new WebhookVerificationError(`Message timestamp is too new (more than ${toleranceSeconds} s in the future).`);
  }

  const expected = Buffer.from(digest(key, id, timestamp, rawBody));
  // Several signatures appear during key rotation on the sender's side; any v1 match is enough.
  const candidates = signatureHeader
    .split(/\s+/)
    .filter((token) => token.startsWith(`${SIGNATURE_VERSION},`))
    .map((token) => Buffer.from(token.slice(SIGNATURE_VERSION.length + 1)));
  if (candidates.length === 0) {
    throw new WebhookVerificationError('The webhook-signature header contains no v1 signature.');
  }
  // Length is public (fixed by SHA-256), so only equal-length candidates need the constant-time compare.
  const matched = candidates.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  if (!matched) {
    throw new WebhookVerificationError('No matching signature: wrong secret, or the body was altered.');
  }
}

/**
 * verifyWebhookSignature, then the parsed JSON payload. Throws WebhookVerificationError when the
 * request must be rejected as not authentic, WebhookPayloadError when it is authentic but not JSON.
 */
export function verifyWebhook(secret: string, headers: HeaderSource, rawBody: string | Uint8Array, options: VerifyOptions = {}): unknown {
  verifyWebhookSignature(secret, headers, rawBody, options);
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new WebhookPayloadError('The signature is valid but the payload is not valid JSON.');
  }
}
