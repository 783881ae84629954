/**
 * What one attempt means for its delivery and its endpoint: success, a retry and when, or the end;
 * and whether the endpoint must be disabled (docs/webhooks.md). Pure: the worker supplies the facts.
 */
import type { DeliveryState } from './webhook-delivery.ts';
import { parseRetryAfter, retryDelaySeconds, shouldDisableEndpoint } from './retry-schedule.ts';

/** What the send stage observed. */
export interface SendResult {
  /** the receiver's HTTP status; null when none arrived (timeout, network error, refused target) */
  status: number | null;
  retryAfter: string | null;
  responseBody: string | null;
  /** why the attempt could not complete; null when the receiver answered */
  error: string | null;
  durationMs: number;
}

export interface AttemptFacts {
  /** this attempt's number, 1-based */
  attempt: number;
  result: SendResult;
  /** when the attempt ended */
  at: Date;
  schedule: readonly number[];
  /** start of the endpoint's current run of failures, before this attempt */
  firstFailureAt: Date | null;
  disableAfterMs: number;
  random?: () => number;
}

export interface AttemptVerdict {
  succeeded: boolean;
  /** the attempt row's `error` */
  error: string | null;
  state: DeliveryState;
  nextAttemptAt: Date | null;
  /** the endpoint's run of failures after this attempt */
  firstFailureAt: Date | null;
  /** set when the endpoint must be disabled now */
  disableReason: string | null;
}

export const isSuccessStatus = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

function describeFailure(result: SendResult): string {
  if (result.error !== null) return result.error;
  const status = result.status!;
  if (status >= 300 && status < 400) return `The receiver answered ${status}, a redirect; redirects are not followed.`;
  return `The receiver answered ${status}.`;
}

export function judgeAttempt(facts: AttemptFacts): AttemptVerdict {
  const { result, at } = facts;
  if (result.error === null && isSuccessStatus(result.status)) {
    return { succeeded: true, error: null, state: 'succeeded', nextAttemptAt: null, firstFailureAt: null, disableReason: null };
  }
  const firstFailureAt = facts.firstFailureAt ?? at;
  const failed = { succeeded: false, error: describeFailure(result), firstFailureAt };
  const disableReason = shouldDisableEndpoint({
    firstFailureAt,
    now: at,
    thresholdMs: facts.disableAfterMs,
    lastStatus: result.status,
  });
  if (disableReason !== null) return { ...failed, state: 'failed', nextAttemptAt: null, disableReason };

  const delay = retryDelaySeconds({
    attempt: facts.attempt,
    schedule: facts.schedule,
    retryAfterSeconds: parseRetryAfter(result.retryAfter, at),
    status: result.status,
    ...(facts.random ? { random: facts.random } : {}),
  });
  if (delay === null) return { ...failed, state: 'failed', nextAttemptAt: null, disableReason: null };
  return { ...failed, state: 'pending', nextAttemptAt: new Date(at.getTime() + delay * 1000), disableReason: null };
}
