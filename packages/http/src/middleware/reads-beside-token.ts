/**
 * On a database that several servers share, a request's token is found, and its rate windows
 * counted, by a statement of its own (tokenResolver): a round trip before the route's own, which
 * PostgreSQL's lists and insights wait for one after the other. A read (GET or HEAD) whose token
 * was accepted on this server lately runs beside that statement, as the caller it was then; its
 * answer is sent only when the statement finds the same caller, in force, within both windows.
 * Otherwise the answer is thrown away and the request runs again as the statement says, with the
 * counts it made: a read changes nothing, so running it for nothing costs time only. A token
 * refused once (expired, revoked, past a limit) runs its next request after its statement again.
 */
import type { Actor } from '@lectern/core';
import type { Reply } from '../reply.ts';
import type { Exchange } from './pipeline.ts';
import type { Hits } from './rate-limit-state.ts';
import { rateLimitHeaders } from './rate-limit.ts';

/** What the token statement found: the caller, or why not, and the windows it counted. */
type Counted = { actor?: Actor; hits?: Hits };

/** tokens remembered at most; past it the memory starts again (a token is only a guess here) */
const MOST_REMEMBERED = 1000;

/** Whether two callers would be answered alike: the same user through the same token, role and scopes. */
export function sameCaller(a: Actor, b: Actor): boolean {
  if (a.kind !== 'user' || b.kind !== 'user') return a.kind === b.kind;
  if (a.userId !== b.userId || a.publicId !== b.publicId || a.role !== b.role || a.tokenId !== b.tokenId) return false;
  if (a.scopes === b.scopes) return true;
  return a.scopes.size === b.scopes.size && [...a.scopes].every((scope) => b.scopes.has(scope));
}

const withinLimits = (hits: Hits | undefined): hits is Hits => !!hits && hits[0].allowed && (hits[1] === null || hits[1].allowed);
const requestsLeft = (hits: Hits) => hits[0].remaining > 0 && (hits[1] === null || hits[1].remaining > 0);

/** A caller the token statement accepted, and the windows' counts it answered with. */
export type Guess = { actor: Actor; hits: Hits };

/** The callers recently accepted, by their Authorization header. */
export class RecentCallers {
  private readonly byHeader = new Map<string, Guess>();

  /** The caller a read with `header` may run as beside its token statement, if any. */
  guess(method: string, header: string | undefined): Guess | undefined {
    if ((method !== 'GET' && method !== 'HEAD') || header === undefined) return undefined;
    return this.byHeader.get(header);
  }

  /**
   * Remembers a caller the statement accepted with requests left in both windows; forgets one it
   * refused or that used its last: a client at its limit gets no read run that its count refuses.
   */
  learn(header: string | undefined, counted: Counted): void {
    if (header === undefined) return;
    if (!counted.actor || !withinLimits(counted.hits) || !requestsLeft(counted.hits)) {
      this.byHeader.delete(header);
      return;
    }
    if (this.byHeader.size >= MOST_REMEMBERED && !this.byHeader.has(header)) this.byHeader.clear();
    this.byHeader.set(header, { actor: counted.actor, hits: counted.hits });
  }
}

/**
 * Runs the rest of the pipeline (`next`) as `guess` while `counting` settles, and answers with it
 * when the count confirms the guess; otherwise runs `next` again after `settle` has put what the
 * count found on the exchange. `counting` rejects only when the database fails: then so does the
 * request, as it would have without the guess.
 */
export async function besideToken<Found extends Counted>(
  exchange: Exchange,
  next: () => Promise<Reply>,
  guess: Guess,
  counting: Promise<Found>,
  settle: (counted: Found) => void,
): Promise<Reply> {
  // awaited only once the read is done: a failure before then must not count as unhandled
  counting.catch(() => undefined);
  exchange.auth = { actor: guess.actor };
  // the rate-limit step takes these as counted and counts nothing itself; the real counts replace
  // them below, or the request runs again with them
  exchange.countedWindows = guess.hits;
  let outcome: { reply: Reply } | { error: unknown };
  try {
    outcome = { reply: await next() };
  } catch (error) {
    outcome = { error };
  }
  let counted: Found;
  try {
    counted = await counting;
  } catch (error) {
    await discard(outcome);
    throw error;
  }
  if (counted.actor && sameCaller(counted.actor, guess.actor) && withinLimits(counted.hits)) {
    exchange.countedWindows = counted.hits;
    exchange.rateHeaders = rateLimitHeaders(counted.hits[0]);
    if ('error' in outcome) throw outcome.error;
    return outcome.reply;
  }
  await discard(outcome);
  exchange.state = undefined;
  exchange.route = undefined;
  exchange.rateHeaders = {};
  exchange.countedWindows = undefined;
  settle(counted);
  return next();
}

/**
 * An answer not sent: a streamed body (an export) may already hold a cursor's connection, which
 * its generator gives back when it ends, so it is started and ended.
 */
async function discard(outcome: { reply: Reply } | { error: unknown }): Promise<void> {
  const stream = 'reply' in outcome ? outcome.reply.stream : undefined;
  if (!stream) return;
  const chunks = stream.chunks[Symbol.asyncIterator]();
  try {
    await chunks.next();
  } catch {
    // the read failed: nothing is held
  } finally {
    await chunks.return?.(undefined)?.catch?.(() => undefined);
  }
}
