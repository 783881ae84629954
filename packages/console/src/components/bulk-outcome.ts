/**
 * What a bulk action did, told the same way for every list: how many rows it changed and, per row
 * that failed, the row's name and the API's reason, so no failure is lost in a count.
 */
import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client.ts';
import type { ItemOutcome } from './run-each.ts';

export interface BulkOutcome {
  /** the action in the past tense, as the count reads ("Deactivated") */
  done: string;
  succeeded: number;
  failures: { name: string; reason: string }[];
  /** something more to say (a link to the job that carries on in the background) */
  note?: ComponentChildren;
  /** selected rows left out because they were already as the action would leave them */
  skipped?: { count: number; already: string };
}

export function reasonOf(error: unknown): string {
  if (error instanceof ApiError) {
    const details = [...error.nonFieldErrors, ...Object.values(error.fieldErrors).flat()].filter((detail) => detail !== error.message);
    return [error.message, ...details].join(' ');
  }
  return error instanceof Error ? error.message : String(error);
}

/** The outcome of one request per row (runEach). */
export function outcomeOfEach<T>(done: string, outcomes: readonly ItemOutcome<T>[], name: (row: T) => string): BulkOutcome {
  return {
    done,
    succeeded: outcomes.filter((outcome) => outcome.error === undefined).length,
    failures: outcomes.flatMap((outcome) =>
      outcome.error === undefined ? [] : [{ name: name(outcome.item), reason: reasonOf(outcome.error) }],
    ),
  };
}

/** The outcome of a batch route's answer, whose failures name the rows by their index in the request. */
export function outcomeOfBatch<T>(
  done: string,
  rows: readonly T[],
  result: { data: { succeeded: unknown[]; failed: { index: number; error: { message: string } }[] } },
  name: (row: T) => string,
): BulkOutcome {
  return {
    done,
    succeeded: result.data.succeeded.length,
    failures: result.data.failed.map((failure) => {
      const row = rows[failure.index];
      return { name: row === undefined ? `Item ${failure.index + 1}` : name(row), reason: failure.error.message };
    }),
  };
}
