/**
 * Lookups by key (shared/prepared-query.ts `preparedLookup`: a token, a user, an assignment by
 * id) that arrive while the same lookup is on its way go together as one statement
 * (shared/coalescer.ts). The statement runs the lookup's own text once per call, each call's values
 * drawn from arrays:
 *
 *   select b.lectern_call, q.* from unnest($1::text[], $2::bigint[]) with ordinality as
 *   b(p1, p2, lectern_call) cross join lateral (<the lookup, $1 → b.p1, $2 → b.p2>) q
 *
 * so each call keeps its own plan shape (an index lookup per call) and its own answer. The arrays
 * are typed as PostgreSQL typed the lookup's parameters, asked once per text with PREPARE.
 */
import type pg from 'pg';
import { coalescer } from '../shared/coalescer.ts';

type Rows = Record<string, unknown>[];
type Run = (text: string, values: readonly unknown[]) => Promise<Rows>;

/** calls one statement carries at most: the statement's arrays stay small */
const MOST_CALLS = 200;
/** lookups of one text on their way at once before the next ones wait to go together */
const IN_FLIGHT = 2;
/** the texts coalesced at most (each keeps a little state); others run alone */
const MOST_TEXTS = 200;
const CALL = 'lectern_call';
/** a statement that may sit in a LATERAL subquery: a SELECT, not a write nor a WITH that may hold one */
const PLAIN_SELECT = /^\s*select\b/i;

/**
 * The lookup's text with each `$n` swapped for `b.pn`, or `undefined` when it is not a plain
 * SELECT (a write, or a WITH that may hold one, cannot sit in a LATERAL subquery). Quoted strings
 * and identifiers are copied as they are.
 */
export function lateralText(text: string, arity: number, types: readonly string[]): string | undefined {
  if (!PLAIN_SELECT.test(text) || arity === 0 || types.length !== arity) return undefined;
  let inner = '';
  for (const piece of text.split(/('(?:[^']|'')*'|"(?:[^"]|"")*")/)) {
    inner += piece.startsWith("'") || piece.startsWith('"') ? piece : piece.replace(/\$(\d+)\b/g, (_, n: string) => `b.p${n}`);
  }
  const columns = types.map((_, i) => `p${i + 1}`).join(', ');
  const arrays = types.map((type, i) => `cast($${i + 1} as ${type}[])`).join(', ');
  return `select b.${CALL}, q.* from unnest(${arrays}) with ordinality as b(${columns}, ${CALL}) cross join lateral (${inner}) q`;
}

/** The parameters' types as PostgreSQL infers them for `text`, or `undefined` when one cannot go in an array. */
async function parameterTypes(pool: pg.Pool, text: string): Promise<string[] | undefined> {
  const client = await pool.connect();
  try {
    await client.query(`prepare lectern_parameter_types as ${text}`);
    try {
      const { rows } = await client.query<{ types: string[] }>(
        `select parameter_types::text[] as types from pg_prepared_statements where name = 'lectern_parameter_types'`,
      );
      const types = rows[0]?.types ?? [];
      // an array of arrays, or a type PostgreSQL could not settle, does not unnest as one column
      return types.every((type) => /^[a-z][a-z0-9 _]*$/.test(type) && type !== 'unknown') ? types : undefined;
    } finally {
      await client.query('deallocate lectern_parameter_types');
    }
  } finally {
    client.release();
  }
}

/**
 * Answers lookups as `run` would, one call's rows each, coalescing the calls of a text that come
 * while earlier ones are out. A text whose parameters' types are not known yet, or cannot be, runs
 * alone.
 */
export function coalescedLookups(pool: () => Promise<pg.Pool>, run: Run): Run {
  // null: alone, while its parameters' types are asked or for good
  const byText = new Map<string, ((values: readonly unknown[]) => Promise<Rows>) | null>();

  const ask = (text: string, arity: number) => {
    if (byText.size >= MOST_TEXTS) return;
    byText.set(text, null);
    pool()
      .then((ready) => parameterTypes(ready, text))
      .then(
        (types) => {
          const lateral = types && lateralText(text, arity, types);
          byText.set(text, lateral ? lookupsOf(text, lateral, run) : null);
        },
        () => byText.set(text, null),
      );
  };

  return (text, values) => {
    const coalesced = byText.get(text);
    if (coalesced) return coalesced(values);
    if (coalesced === undefined && PLAIN_SELECT.test(text)) ask(text, values.length);
    return run(text, values);
  };
}

function lookupsOf(text: string, lateral: string, run: Run): (values: readonly unknown[]) => Promise<Rows> {
  return coalescer<readonly unknown[], Rows>({
    one: (values) => run(text, values),
    many: async (calls) => {
      const arrays = calls[0]!.map((_, slot) => calls.map((values) => values[slot]));
      const answers: Rows[] = calls.map(() => []);
      for (const row of await run(lateral, arrays)) {
        const call = Number(row[CALL]) - 1;
        delete row[CALL];
        answers[call]!.push(row);
      }
      return answers;
    },
    inFlight: IN_FLIGHT,
    most: MOST_CALLS,
  });
}
