import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeAttempt, type AttemptFacts, type SendResult } from './delivery-outcome.ts';

const at = new Date('2026-03-01T12:00:00.000Z');
const answered = (status: number, retryAfter: string | null = null): SendResult => ({
  status,
  retryAfter,
  responseBody: '',
  error: null,
  durationMs: 12,
});
const facts = (result: SendResult, overrides: Partial<AttemptFacts> = {}): AttemptFacts => ({
  attempt: 1,
  result,
  at,
  schedule: [5, 300, 1800],
  firstFailureAt: null,
  disableAfterMs: 5 * 24 * 3600 * 1000,
  random: () => 0.5,
  ...overrides,
});
const secondsAfter = (date: Date | null) => (date!.getTime() - at.getTime()) / 1000;

describe('judgeAttempt', () => {
  it('counts any 2xx as success and ends the failing run', () => {
    for (const status of [200, 201, 202, 204, 299]) {
      const verdict = judgeAttempt(facts(answered(status), { firstFailureAt: new Date(0) }));
      assert.deepEqual(verdict, {
        succeeded: true,
        error: null,
        state: 'succeeded',
        nextAttemptAt: null,
        firstFailureAt: null,
        disableReason: null,
      });
    }
  });

  it('schedules the next attempt after a failure and starts the failing run', () => {
    const verdict = judgeAttempt(facts(answered(500)));
    assert.equal(verdict.succeeded, false);
    assert.equal(verdict.state, 'pending');
    assert.equal(verdict.error, 'The receiver answered 500.');
    assert.equal(secondsAfter(verdict.nextAttemptAt), 5);
    assert.deepEqual(verdict.firstFailureAt, at);
    assert.equal(judgeAttempt(facts(answered(500), { attempt: 3 })).nextAttemptAt!.getTime(), at.getTime() + 1800_000);
  });

  it('keeps the start of a running failure streak', () => {
    const since = new Date('2026-02-28T00:00:00.000Z');
    assert.deepEqual(judgeAttempt(facts(answered(502), { firstFailureAt: since })).firstFailureAt, since);
  });

  it('fails the delivery for good when the schedule is exhausted', () => {
    const verdict = judgeAttempt(facts(answered(500), { attempt: 4 }));
    assert.equal(verdict.state, 'failed');
    assert.equal(verdict.nextAttemptAt, null);
    assert.equal(verdict.disableReason, null);
  });

  it('treats redirects, timeouts and network errors as failures', () => {
    assert.match(judgeAttempt(facts(answered(301))).error!, /redirect/);
    assert.equal(judgeAttempt(facts(answered(100))).succeeded, false);
    const network = judgeAttempt(
      facts({ status: null, retryAfter: null, responseBody: null, error: 'Could not deliver: boom', durationMs: 3 }),
    );
    assert.equal(network.error, 'Could not deliver: boom');
    assert.equal(network.state, 'pending');
    // an error after the status line (e.g. the body timed out) is still a failure
    assert.equal(judgeAttempt(facts({ ...answered(200), error: 'No complete answer within 15 s.' })).succeeded, false);
  });

  it("honours the receiver's Retry-After on 503, within the clamp", () => {
    assert.equal(secondsAfter(judgeAttempt(facts(answered(503, '8'))).nextAttemptAt), 8);
    assert.equal(secondsAfter(judgeAttempt(facts(answered(503, '3600'))).nextAttemptAt), 10);
    assert.equal(secondsAfter(judgeAttempt(facts(answered(500, '8'))).nextAttemptAt), 5);
  });

  it('disables at once on 410', () => {
    const verdict = judgeAttempt(facts(answered(410)));
    assert.equal(verdict.state, 'failed');
    assert.equal(verdict.nextAttemptAt, null);
    assert.match(verdict.disableReason!, /410/);
  });

  it('disables once the endpoint has failed for the whole threshold', () => {
    const day = 24 * 3600 * 1000;
    const young = judgeAttempt(facts(answered(500), { firstFailureAt: new Date(at.getTime() - 4 * day) }));
    assert.equal(young.disableReason, null);
    const old = judgeAttempt(facts(answered(500), { firstFailureAt: new Date(at.getTime() - 5 * day) }));
    assert.match(old.disableReason!, /5 days/);
    assert.equal(old.state, 'failed');
  });
});
