import type { TokenWindows } from '@lectern/core/ports';
import type { CredentialsRow } from '../auth/token-repository.ts';

/** A request's token, the instant it was judged at, and the windows it counts in. */
export interface TokenCall {
  tokenHash: string;
  now: string;
  windows: TokenWindows;
}

/** The token and its windows' counts with this call: `token_hits` is null when the token was not in force. */
export type CountedRow = CredentialsRow & { token_hits: number | null; user_hits: number | null };

/** A distinct token of a batch, counted `n` times: the windows' counts after all `n`. */
export type TokenCallsRow = CountedRow & { token_hash: string; n: number };

type CountTokens = (tokenHashes: string[], calls: number[], now: string, windows: TokenWindows) => Promise<TokenCallsRow[]>;

const windowsKey = (windows: TokenWindows) =>
  `${windows.windowStart}\u0000${windows.tokenLimit}\u0000${windows.tokenPrefix}\u0000${windows.userPrefix}`;

/**
 * Counts several calls with one statement per set of windows (almost always one: the calls of a
 * batch came within a few milliseconds), and answers each call's row as if the calls had been
 * counted one after the other, in their order. The batch is judged at its latest call's instant:
 * a token that expired before it counts for none of the batch's calls, as it would for a call
 * made then.
 */
export async function countsOfTokenCalls(calls: TokenCall[], countTokens: CountTokens): Promise<(CountedRow | undefined)[]> {
  const groups = new Map<string, number[]>();
  calls.forEach((call, i) => {
    const key = windowsKey(call.windows);
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  const answers: (CountedRow | undefined)[] = new Array(calls.length);
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      const ofGroup = indexes.map((i) => calls[i]!);
      const counts = new Map<string, number>();
      for (const call of ofGroup) counts.set(call.tokenHash, (counts.get(call.tokenHash) ?? 0) + 1);
      const now = ofGroup.reduce((latest, call) => (call.now > latest ? call.now : latest), ofGroup[0]!.now);
      const windows = ofGroup[0]!.windows;
      const rows = await countTokens([...counts.keys()], [...counts.values()], now, windows);
      const perCall = callCounts(
        ofGroup.map((call) => call.tokenHash),
        rows,
        windows.tokenLimit,
      );
      indexes.forEach((i, k) => (answers[i] = perCall[k]));
    }),
  );
  return answers;
}

/**
 * Each call's counts from the windows' totals after the batch (pure). A token counted `n` times
 * that ended at `H` was at `H - n` before: its k-th call counted `H - n + k`, and only the calls
 * within the limit counted in the user's window, which ended at `S` after `A` of them, so they
 * counted `S - A + 1` … `S` in the order of the calls.
 */
export function callCounts(hashes: readonly string[], rows: readonly TokenCallsRow[], tokenLimit: number): (CountedRow | undefined)[] {
  const byHash = new Map(rows.map((row) => [row.token_hash, row]));
  const allowedOfUser = new Map<number, number>();
  for (const row of rows) {
    if (row.token_hits === null) continue;
    const n = Number(row.n);
    const allowed = Math.min(n, Math.max(0, tokenLimit - (Number(row.token_hits) - n)));
    allowedOfUser.set(row.user_id, (allowedOfUser.get(row.user_id) ?? 0) + allowed);
  }
  const callsOfToken = new Map<string, number>();
  const givenOfUser = new Map<number, number>();
  return hashes.map((hash) => {
    const row = byHash.get(hash);
    if (!row) return undefined;
    const { token_hash: _hash, n, token_hits: tokenTotal, user_hits: userTotal, ...credentials } = row;
    if (tokenTotal === null) return { ...credentials, token_hits: null, user_hits: null };
    const k = (callsOfToken.get(hash) ?? 0) + 1;
    callsOfToken.set(hash, k);
    const tokenHits = Number(tokenTotal) - Number(n) + k;
    if (tokenHits > tokenLimit || userTotal === null) return { ...credentials, token_hits: tokenHits, user_hits: null };
    const given = (givenOfUser.get(row.user_id) ?? 0) + 1;
    givenOfUser.set(row.user_id, given);
    return { ...credentials, token_hits: tokenHits, user_hits: Number(userTotal) - allowedOfUser.get(row.user_id)! + given };
  });
}
