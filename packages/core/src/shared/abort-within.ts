/**
 * An operation's own signal: aborted when `outer` is (a shutdown) or after `ms`, whichever comes
 * first. `AbortSignal.any([AbortSignal.timeout(ms), outer])` does the same, but Node keeps every
 * signal made that way in a set on `outer` for as long as `outer` lives, so a server combining its
 * lifelong shutdown signal per request grows by one entry each time (nodejs/node#55351). Here the
 * link to `outer` is a listener that `release` removes when the operation ends.
 */
export interface OperationSignal {
  signal: AbortSignal;
  /** whether the time ran out (rather than `outer` aborting) */
  timedOut(): boolean;
  /** ends the link to `outer` and the timer; call it once the operation has settled */
  release(): void;
}

export function abortWithin(outer: AbortSignal, ms: number): OperationSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onOuterAbort = () => controller.abort(outer.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`No answer within ${ms} ms.`, 'TimeoutError'));
  }, ms);
  // a pending attempt must not keep a stopping process alive
  timer.unref?.();
  if (outer.aborted) onOuterAbort();
  else outer.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    release: () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', onOuterAbort);
    },
  };
}
