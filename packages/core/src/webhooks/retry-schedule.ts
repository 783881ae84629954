/**
 * When to retry a failed delivery and when to give up on an endpoint (docs/webhooks.md).
 * Pure arithmetic: the delivery worker supplies attempts, statuses and times.
 */
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../config.ts';

/** ±20 %: spreads retries of many deliveries that failed together (e.g. one receiver outage). */
export const RETRY_JITTER = 0.2;

/** Statuses whose Retry-After means "come back later" rather than "this will never work". */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

export const DEFAULT_DISABLE_THRESHOLD_MS = 5 * 24 * 60 * 60 * 1000;

export interface RetryDelayInput {
  /** The attempt that just failed, 1-based. */
  attempt: number;
  /** Delays in seconds after attempts 1, 2, …; its length + 1 is the total number of attempts. */
  schedule?: readonly number[];
  /** The receiver's Retry-After, already parsed (see parseRetryAfter). */
  retryAfterSeconds?: number | null;
  /** The receiver's HTTP status; null or absent for timeouts and network errors. */
  status?: number | null;
  /** Uniform in [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

/** Seconds to wait before the next attempt, or null when the schedule is exhausted. */
export function retryDelaySeconds({
  attempt,
  schedule = DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  retryAfterSeconds,
  status,
  random = Math.random,
}: RetryDelayInput): number | null {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  const scheduled = schedule[attempt - 1];
  if (scheduled === undefined) return null;
  if (!Number.isFinite(scheduled) || scheduled < 0) throw new RangeError(`invalid retry delay ${scheduled} in schedule`);

  if (status != null && RETRY_AFTER_STATUSES.has(status) && retryAfterSeconds != null && Number.isFinite(retryAfterSeconds)) {
    // The clamp keeps a receiver from either hammering us (Retry-After: 0) or parking the
    // delivery indefinitely (Retry-After: one year); the receiver's own figure is used unjittered.
    return Math.min(Math.max(retryAfterSeconds, scheduled), 2 * scheduled);
  }
  const factor = 1 + (2 * random() - 1) * RETRY_JITTER;
  // Millisecond precision is all a scheduler can use, and it keeps stored values tidy.
  return Math.round(scheduled * factor * 1000) / 1000;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 §5.6.7: IMF-fixdate, plus the obsolete RFC 850 and asctime forms recipients must accept.
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

function utcMillis(year: number, month: string, day: number, hh: string, mm: string, ss: string): number | null {
  const monthIndex = MONTHS.indexOf(month);
  const [h, m, s] = [Number(hh), Number(mm), Number(ss)];
  if (h > 23 || m > 59 || s > 60) return null;
  const millis = Date.UTC(year, monthIndex, day, h, m, Math.min(s, 59));
  // Date.UTC rolls 31 Feb over into March; such a date is malformed, not a real instant.
  return new Date(millis).getUTCDate() === day ? millis : null;
}

/** Epoch milliseconds of an HTTP-date, or null. Deliberately not Date.parse, which accepts near anything. */
function parseHttpDate(value: string, nowMs: number): number | null {
  let m = IMF_FIXDATE.exec(value);
  if (m) return utcMillis(Number(m[3]), m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!);
  m = RFC850_DATE.exec(value);
  if (m) {
    // RFC 9110: a two-digit year more than 50 years in the future means the previous century.
    const nowYear = new Date(nowMs).getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + Number(m[3]);
    if (year > nowYear + 50) year -= 100;
    return utcMillis(year, m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!);
  }
  m = ASCTIME_DATE.exec(value);
  if (m) return utcMillis(Number(m[6]), m[1]!, Number(m[2]!.trim()), m[3]!, m[4]!, m[5]!);
  return null;
}

/**
 * A Retry-After header as whole seconds from `now`: delta-seconds or an HTTP-date (a past date is 0).
 * Null when absent or malformed, so the caller falls back to the schedule.
 */
export function parseRetryAfter(headerValue: string | null | undefined, now: Date | number): number | null {
  if (headerValue == null) return null;
  const value = headerValue.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const at = parseHttpDate(value, nowMs);
  return at === null ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

export interface DisableInput {
  /** Start of the current run of failures (the first failed attempt since the last success); null if none. */
  firstFailureAt: Date | number | null | undefined;
  now: Date | number;
  thresholdMs?: number;
  /** Status of the attempt that just failed; null for timeouts and network errors. */
  lastStatus?: number | null;
}

const toMillis = (value: Date | number): number => (typeof value === 'number' ? value : value.getTime());

/**
 * The endpoint's `disabled_reason` when it should be disabled now, else null.
 * 410 Gone is the receiver saying the endpoint no longer exists; otherwise a receiver gets the
 * whole threshold to recover, measured from its first unanswered failure.
 */
export function shouldDisableEndpoint({
  firstFailureAt,
  now,
  thresholdMs = DEFAULT_DISABLE_THRESHOLD_MS,
  lastStatus,
}: DisableInput): string | null {
  if (lastStatus === 410) return 'The endpoint answered 410 Gone.';
  if (firstFailureAt == null) return null;
  const failingMs = toMillis(now) - toMillis(firstFailureAt);
  if (failingMs < thresholdMs) return null;
  return `No successful delivery for ${formatDuration(failingMs)} of failing attempts.`;
}

function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.floor(hours / 24)} days`;
}
