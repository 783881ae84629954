/**
 * A value a store may answer at once (SQLite reads run on the calling thread) or later
 * (PostgreSQL). Hot paths keep the answer synchronous when it is, since every `await` or `then`
 * of a settled value still costs a turn of the microtask queue per request.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `then(value)` now when the value is here, or once it arrives; a rejection goes to `onRejected`. */
export function whenSettled<T, U>(
  value: MaybePromise<T>,
  then: (settled: T) => MaybePromise<U>,
  onRejected?: (error: unknown) => MaybePromise<U>,
): MaybePromise<U> {
  return value instanceof Promise ? value.then(then, onRejected) : then(value);
}
