import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TokenWindows } from '@lectern/core/ports';
import { callCounts, countsOfTokenCalls, type TokenCallsRow } from './token-calls.ts';

const credentials = (id: number, userId: number) => ({
  id,
  scopes: '["users:read"]',
  expires_at: null,
  user_id: userId,
  public_id: `user-${userId}`,
  role: 'learner',
  is_active: 1,
});

const row = (hash: string, id: number, userId: number, n: number, tokenHits: number | null, userHits: number | null): TokenCallsRow => ({
  ...credentials(id, userId),
  token_hash: hash,
  n,
  token_hits: tokenHits,
  user_hits: userHits,
});

const counts = (answers: ReturnType<typeof callCounts>) => answers.map((answer) => answer && [answer.token_hits, answer.user_hits]);

describe("a batch of token calls' counts", () => {
  it('are what the calls would have counted one after the other', () => {
    // token a: 5 calls into a fresh window with a limit of 3, its user's window fresh too
    assert.deepEqual(
      counts(callCounts(['a', 'a', 'a', 'a', 'a'], [row('a', 1, 7, 5, 5, 3)], 3)),
      [
        [1, 1],
        [2, 2],
        [3, 3],
        [4, null],
        [5, null],
      ],
      'the calls past the limit count in the token window only',
    );
  });

  it("share the user's window between the user's tokens, in the order of the calls", () => {
    // a: 2 calls into a fresh window; b: 2 calls after 5 earlier ones, limit 6; the user's window
    // held 7 before and counted the 3 calls the limit allowed
    const rows = [row('a', 1, 7, 2, 2, 10), row('b', 2, 7, 2, 7, 10)];
    assert.deepEqual(counts(callCounts(['a', 'b', 'a', 'b'], rows, 6)), [
      [1, 8],
      [6, 9],
      [2, 10],
      [7, null],
    ]);
  });

  it('count nothing for a token not in force, and find no unknown token', () => {
    const rows = [row('a', 1, 7, 2, null, null)];
    const answers = callCounts(['a', 'x', 'a'], rows, 5);
    assert.deepEqual(counts(answers), [[null, null], undefined, [null, null]]);
    assert.equal(answers[0]!.id, 1, 'the token is answered, for core to refuse it');
    assert.equal('token_hash' in answers[0]!, false, "the batch's own columns are not part of a call's row");
  });

  it('go as one statement per set of windows, judged at the latest call', async () => {
    const windows = (windowStart: number): TokenWindows => ({ tokenPrefix: 'token:', userPrefix: 'user:', windowStart, tokenLimit: 100 });
    const statements: Array<{ hashes: string[]; calls: number[]; now: string; start: number }> = [];
    const answers = await countsOfTokenCalls(
      [
        { tokenHash: 'a', now: '2026-11-29T10:00:00.001Z', windows: windows(0) },
        { tokenHash: 'b', now: '2026-11-29T10:00:00.003Z', windows: windows(0) },
        { tokenHash: 'a', now: '2026-11-29T10:00:00.002Z', windows: windows(0) },
        { tokenHash: 'a', now: '2026-11-29T10:01:00.000Z', windows: windows(60_000) },
      ],
      async (hashes, calls, now, { windowStart }) => {
        statements.push({ hashes, calls, now, start: windowStart });
        return hashes.map((hash, i) => row(hash, hash === 'a' ? 1 : 2, 7, calls[i]!, calls[i]!, null));
      },
    );
    assert.deepEqual(statements, [
      { hashes: ['a', 'b'], calls: [2, 1], now: '2026-11-29T10:00:00.003Z', start: 0 },
      { hashes: ['a'], calls: [1], now: '2026-11-29T10:01:00.000Z', start: 60_000 },
    ]);
    assert.deepEqual(
      answers.map((answer) => answer?.token_hits),
      [1, 1, 2, 1],
    );
  });
});
