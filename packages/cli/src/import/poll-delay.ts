/**
 * How long `lectern import` waits before asking the server for an import's progress again: longer
 * the longer the import has run (BACKOFF_MS), but no longer than the rows left take at the rate
 * the last two answers showed, so that the end is seen within about MIN_MS of the import's last
 * chunk rather than up to a whole second after it (the operator waits for that, and a benchmark
 * through the command measured it: a second on a ten-second import).
 */
const BACKOFF_MS = [100, 200, 300, 500, 750, 1000];
const MIN_MS = 100;

export interface ProgressSeen {
  /** when it was read, in ms (any clock) */
  at: number;
  processed: number;
}

export function nextPollDelay(
  attempt: number,
  total: number,
  previous: ProgressSeen | undefined,
  latest: ProgressSeen | undefined,
): number {
  const backoff = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
  if (!previous || !latest || latest.at <= previous.at || latest.processed <= previous.processed) return backoff;
  const rowsPerMs = (latest.processed - previous.processed) / (latest.at - previous.at);
  const leftMs = Math.max(0, total - latest.processed) / rowsPerMs;
  return Math.round(Math.min(backoff, Math.max(MIN_MS, leftMs)));
}
