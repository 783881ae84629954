import { type z } from 'zod';
import { LecternError, validationError, type FieldErrors } from './errors.ts';

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  date: 'a date',
};

/** Person-readable messages for the issues our schemas produce; zod's defaults name internals. */
const messageFor: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'This field is required.';
      if (issue.input === null) return 'This field may not be null.';
      return `Must be ${typeNames[issue.expected] ?? issue.expected}.`;
    case 'too_small':
      if (issue.origin === 'string') return `Must be at least ${issue.minimum} character${issue.minimum === 1 ? '' : 's'} long.`;
      if (issue.origin === 'array') return `Must contain at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}.`;
      return `Must be at least ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Must be at most ${issue.maximum} characters long.`;
      if (issue.origin === 'array') return `Must contain at most ${issue.maximum} items.`;
      return `Must be at most ${issue.maximum}.`;
    case 'invalid_value':
      return `Must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_format':
      if (issue.format === 'email') return 'Enter a valid email address.';
      return `Must be a valid ${issue.format}.`;
    default:
      return undefined;
  }
};

/** Flattens zod issues into the envelope's `field_errors` / `non_field_errors`. */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): { fieldErrors: FieldErrors; nonFieldErrors: string[] } {
  // keys come from the client's body, and `__proto__` is a valid JSON key: a Map keeps any key inert
  const byField = new Map<string, string[]>();
  const nonFieldErrors: string[] = [];
  const add = (path: readonly PropertyKey[], message: string) => {
    if (path.length === 0) {
      nonFieldErrors.push(message);
      return;
    }
    const key = path.map(String).join('.');
    byField.set(key, [...(byField.get(key) ?? []), message]);
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'Unknown field.');
    } else {
      add(issue.path, issue.message);
    }
  }
  return { fieldErrors: Object.fromEntries(byField) as FieldErrors, nonFieldErrors };
}

/**
 * What an embedder passes for a schema: its zod input type, so a misspelt or mistyped field is a
 * compile error. The service still validates at run time, because HTTP bodies arrive untyped.
 */
export type InputOf<S extends z.ZodType> = z.input<S>;

/** A job's submission: the wrapper key holding the items, each an `InputOf` the item schema. */
export type BulkInputOf<Key extends string, S extends z.ZodType> = { [K in Key]: InputOf<S>[] };

/** With the `u` flag a pair is one code point, so only a surrogate standing alone matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a text cannot be stored as it is, or undefined when it can. */
function unstorableText(text: string): string | undefined {
  // PostgreSQL's text cannot hold NUL; refusing it on every database keeps the two alike
  if (text.includes('\u0000')) return 'Must not contain the NUL character (U+0000).';
  // A lone surrogate is not Unicode: each database would store its own replacement characters
  // (three U+FFFD on SQLite, one on PostgreSQL), silently changing the text and its length.
  if (LONE_SURROGATE.test(text)) return 'Must not contain an unpaired UTF-16 surrogate (the text is not valid Unicode).';
  return undefined;
}

/**
 * Issues for every text of `value`, keys included, that cannot be stored as sent (docs/api.md,
 * "Conventions"). Walked with a stack rather than by recursion: a body nested thousands of levels
 * deep must get its answer, not overflow the call stack.
 */
function unstorableTextIssues(value: unknown): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  const pending: Array<{ value: unknown; path: PropertyKey[] }> = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      const message = unstorableText(current);
      if (message) issues.push({ code: 'custom', path, message, input: current });
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) pending.push({ value: current[index], path: [...path, index] });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index]!;
        const keyProblem = unstorableText(key);
        if (keyProblem) issues.push({ code: 'custom', path: [...path, key], message: keyProblem, input: key });
        pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  return issues;
}

/** The schema's output, or the issues that refuse the input: the schema's, then text no database stores. */
function validated<S extends z.ZodType>(schema: S, input: unknown): { data: z.output<S> } | { issues: z.core.$ZodIssue[] } {
  const result = schema.safeParse(input, { error: messageFor });
  const issues = result.success ? unstorableTextIssues(result.data) : result.error.issues;
  return result.success && issues.length === 0 ? { data: result.data } : { issues };
}

/** Validates a request body; anything the schema rejects is a 422 `validation_error`. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const outcome = validated(schema, input);
  if ('data' in outcome) return outcome.data;
  const { fieldErrors, nonFieldErrors } = issuesToErrors(outcome.issues);
  throw new LecternError('validation_error', 'The request body failed validation.', {
    fieldErrors,
    ...(nonFieldErrors.length > 0 ? { nonFieldErrors } : {}),
  });
}

/**
 * A service's argument chosen from a closed set (a content type, a group relation, an action): the
 * type holds TypeScript callers to the set, this holds plain-JavaScript ones, so a misspelt value
 * is a `validation_error` naming the argument, never a TypeError further in or a silent no-op.
 * Bodies enter through `parseInput` and query parameters through `readParam`; these through here.
 */
export function parseArgument<T extends string>(name: string, allowed: readonly T[], value: unknown): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw validationError({ [name]: [`Must be one of: ${allowed.join(', ')}.`] }, `The argument '${name}' is not one of its values.`);
}

/** Each item parsed as `parseInput` would, undefined where it fails (a batch leaves those to a one-by-one write). */
export function parseEach<S extends z.ZodType>(schema: S, items: readonly unknown[]): Array<z.output<S> | undefined> {
  return items.map((item) => {
    const outcome = validated(schema, item);
    return 'data' in outcome ? outcome.data : undefined;
  });
}
