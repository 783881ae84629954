import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely, SqliteDialect, sql, type SqlBool } from 'kysely';
import { compileRql, createLectern, reportResourceDefinitions, type RqlCatalogue } from '@lectern/core';
import { foldCase, type RqlFilter } from '@lectern/core/ports';
import { matchesRql } from '../../../core/src/reports/rql/rql-evaluate.ts';
import { openSqliteStorage, registerSqliteFunctions } from '../sqlite/open-sqlite-storage.ts';
import { openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import { rqlToSql, type RqlSqlFields } from './rql-to-sql.ts';

// ---------------------------------------------------------------- a small resource in SQLite

interface Tables {
  items: {
    id: number;
    s: string;
    sn: string | null;
    i: number | null;
    n: number;
    b: number | null;
    d: string | null;
    dt: string;
    e: string | null;
    ref_id: number | null;
  };
  refs: { id: number; email: string };
  item_tags: { item_id: number; tag: string };
}

interface Item {
  id: number;
  s: string;
  sn: string | null;
  i: number | null;
  n: number;
  b: boolean | null;
  d: string | null;
  dt: string;
  e: string | null;
  tags: string[];
  ref: { email: string } | null;
}

const ENUM_VALUES = ['draft', 'live', 'gone'];

const catalogue: RqlCatalogue = {
  fields: {
    s: { type: 'string' },
    sn: { type: 'string', nullable: true },
    i: { type: 'integer', nullable: true },
    n: { type: 'number' },
    b: { type: 'boolean', nullable: true },
    d: { type: 'date', nullable: true },
    dt: { type: 'datetime' },
    e: { type: 'enum', values: ENUM_VALUES, nullable: true },
    tags: { type: 'string-array' },
    'ref.email': { type: 'string', nullable: true },
  },
  searchable: ['s', 'ref.email', 'tags'],
};

const column = (name: string) => ({ kind: 'scalar' as const, column: sql.ref(name) });

const sqlFields: RqlSqlFields = {
  s: column('items.s'),
  sn: column('items.sn'),
  i: column('items.i'),
  n: column('items.n'),
  b: column('items.b'),
  d: column('items.d'),
  dt: column('items.dt'),
  e: column('items.e'),
  'ref.email': column('refs.email'),
  tags: {
    kind: 'array',
    some: (test) => sql<SqlBool>`EXISTS (SELECT 1 FROM item_tags it WHERE it.item_id = items.id AND ${test(sql.ref('it.tag'))})`,
  },
};

const sqlite = new Database(':memory:');
registerSqliteFunctions(sqlite);
sqlite.exec(`
  CREATE TABLE refs (id INTEGER PRIMARY KEY, email TEXT NOT NULL);
  CREATE TABLE items (
    id INTEGER PRIMARY KEY, s TEXT NOT NULL, sn TEXT, i INTEGER, n REAL NOT NULL, b INTEGER,
    d TEXT, dt TEXT NOT NULL, e TEXT, ref_id INTEGER REFERENCES refs (id)
  );
  CREATE TABLE item_tags (item_id INTEGER NOT NULL, tag TEXT NOT NULL);
`);
const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
after(() => db.destroy());

function store(items: readonly Item[]): void {
  sqlite.exec('DELETE FROM item_tags; DELETE FROM items; DELETE FROM refs;');
  const insertRef = sqlite.prepare('INSERT INTO refs (id, email) VALUES (?, ?)');
  const insertItem = sqlite.prepare('INSERT INTO items (id, s, sn, i, n, b, d, dt, e, ref_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const insertTag = sqlite.prepare('INSERT INTO item_tags (item_id, tag) VALUES (?, ?)');
  for (const item of items) {
    if (item.ref) insertRef.run(item.id, item.ref.email);
    const b = item.b === null ? null : item.b ? 1 : 0;
    insertItem.run(item.id, item.s, item.sn, item.i, item.n, b, item.d, item.dt, item.e, item.ref ? item.id : null);
    for (const tag of item.tags) insertTag.run(item.id, tag);
  }
}

const query = (expression: string) => {
  const { filter } = compileRql(expression, catalogue);
  return db
    .selectFrom('items')
    .leftJoin('refs', 'refs.id', 'items.ref_id')
    .select('items.id')
    .where(rqlToSql(filter, sqlFields))
    .orderBy('items.id');
};

async function sqlIds(expression: string): Promise<number[]> {
  return (await query(expression).execute()).map((row) => row.id);
}

function memoryIds(items: readonly Item[], expression: string): number[] {
  const validated = compileRql(expression, catalogue);
  return items.filter((item) => matchesRql(validated, item)).map((item) => item.id);
}

// ---------------------------------------------------------------- writing values as RQL

const UNQUOTED = /^[\p{L}\p{M}\p{N}_.\-:+@*\\][\p{L}\p{M}\p{N}_.\-:+@* \\]*$/u;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * RQL has no escapes, so a value cannot hold both quote characters (such values lose their double
 * quotes), and values may contain neither U+0000 nor a lone surrogate (rows may: SQLite keeps both).
 */
function writable(value: string): string {
  const usable = value.replaceAll('\0', '').replace(LONE_SURROGATE, '\uFFFD');
  return usable.includes("'") && usable.includes('"') ? usable.replaceAll('"', '') : usable;
}

function rqlValue(value: string): string {
  if (UNQUOTED.test(value)) return value;
  return value.includes("'") ? `"${value}"` : `'${value}'`;
}

// ---------------------------------------------------------------- arbitraries

/**
 * Characters chosen to break things: case pairs inside and outside ASCII, an astral character and the
 * BMP characters above the surrogates (UTF-16 and code point order disagree on them), LIKE/GLOB
 * specials and quotes. The first group is drawn more often so that values collide. The second ends
 * with what text can hold but should not: U+0000 and the two halves of '😀' alone (a JSON body can
 * carry them and SQLite stores them as they are; `writable` keeps them out of expressions, whose
 * validation rejects them) and the noncharacters that SQLite's pattern matching reads as U+FFFD.
 * Two halves drawn side by side make a pair, as they would in a body.
 */
const COMMON_CHARS = ['a', 'A', 'b', 'é', 'É', '😀', '\uFFFD', '\uE000', '%', '_', '['];
const OTHER_CHARS = [
  'B',
  'z',
  'ß',
  'İ',
  'ı',
  '\\',
  '*',
  '?',
  ']',
  "'",
  '"',
  ' ',
  ';',
  '-',
  ',',
  '(',
  ')',
  '\0',
  '\uD83D',
  '\uDE00',
  '\uFFFF',
  '\uFFFE',
];
const char = fc.oneof(
  { arbitrary: fc.constantFrom(...COMMON_CHARS), weight: 3 },
  { arbitrary: fc.constantFrom(...OTHER_CHARS), weight: 2 },
);
const text = fc.string({ unit: char, maxLength: 4 });

const DATES = ['2024-02-29', '2025-12-31', '2026-01-01', '2026-01-15', '2026-03-01'];
const INSTANTS = [
  '2025-12-31T23:59:59.999Z',
  '2026-01-01T00:00:00.000Z',
  '2026-01-10T00:00:00.000Z',
  '2026-01-10T08:30:00.000Z',
  '2026-03-01T12:00:00.500Z',
];
const NUMBERS = [0, 0.5, -1.25, 2, 3];

const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 3 });

const itemArb: fc.Arbitrary<Omit<Item, 'id'>> = fc.record({
  s: text,
  sn: nullable(text),
  i: nullable(fc.integer({ min: -3, max: 3 })),
  n: fc.oneof(fc.constantFrom(...NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true })),
  b: nullable(fc.boolean()),
  d: nullable(fc.constantFrom(...DATES)),
  dt: fc.constantFrom(...INSTANTS),
  e: nullable(fc.constantFrom(...ENUM_VALUES)),
  tags: fc.array(text, { maxLength: 3 }),
  ref: nullable(fc.record({ email: text })),
});

const itemsArb = fc.array(itemArb, { maxLength: 8 }).map((items) => items.map((item, index): Item => ({ ...item, id: index + 1 })));

/** One of the forms of a datetime that names `instant`, or a bare date. */
function datetimeForms(instant: string): string[] {
  const time = Date.parse(instant);
  const shifted = (minutes: number) => new Date(time + minutes * 60_000).toISOString().slice(0, 23);
  const forms = [
    instant,
    instant.slice(0, 23),
    `${shifted(120)}+02:00`,
    `${shifted(-330)}-05:30`,
    instant.replace('T', ' ').toLowerCase(),
    instant.slice(0, 10),
  ];
  if (instant.endsWith(':00.000Z')) forms.push(instant.slice(0, 16), `${instant.slice(0, 19)}Z`);
  return forms;
}

const INFIX = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

function comparison(property: string, operators: readonly string[], values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...operators), values, fc.nat(2)).map(([op, value, form]) => {
    if (form === 1 && INFIX.includes(op)) return `${property}=${op}=${value}`;
    if (form === 2 && op === 'eq') return `${property}=${value}`;
    return `${op}(${property},${value})`;
  });
}

/** `null()` joins the values of a nullable field's list, `empty()` those of a string field's. */
const list = (property: string, values: fc.Arbitrary<string>, ...specials: ('null()' | 'empty()')[]) =>
  fc
    .tuple(
      fc.constantFrom('in', 'out'),
      fc.array(specials.length > 0 ? fc.oneof({ arbitrary: values, weight: 3 }, fc.constantFrom(...specials)) : values, {
        minLength: 1,
        maxLength: 3,
      }),
    )
    .map(([op, items]) => `${op}(${property},(${items.join(',')}))`);

const special = (property: string, value: 'null()' | 'empty()') =>
  fc.constantFrom(`eq(${property},${value})`, `ne(${property},${value})`, `${property}=${value}`);

function expressionArb(items: readonly Item[]): fc.Arbitrary<string> {
  const seen = items.flatMap((item) => [item.s, item.sn, item.ref?.email, ...item.tags]).filter((v): v is string => typeof v === 'string');
  const raw = seen.length > 0 ? fc.oneof(fc.constantFrom(...seen), text) : text;
  // Case variants make ilike and search find matches that differ in case, inside ASCII and out.
  const cased = fc.tuple(raw, fc.nat(2)).map(([v, m]) => writable(m === 0 ? v : m === 1 ? v.toUpperCase() : v.toLowerCase()));
  const stringValue = cased.map(rqlValue);
  // Patterns built from a value seen in the rows: a prefix, middle slices and a suffix of it with
  // wildcards between, so that patterns often nearly match (prefix and suffix overlapping, middle
  // pieces out of order or overlapping the suffix, a special character where the value has another).
  const pattern = cased
    .chain((v) => {
      const chars = Array.from(v);
      const slice = fc.tuple(fc.nat(chars.length), fc.nat(3)).map(([start, length]) => chars.slice(start, start + length));
      // one character swapped for a LIKE/GLOB special: such a pattern matches only if escaping is broken
      const nearMiss = fc.tuple(slice, fc.nat(2), fc.constantFrom('%', '_', '?', '[', ']')).map(([piece, at, special]) => {
        if (piece.length > 0) piece[at % piece.length] = special;
        return piece;
      });
      const middle = fc.oneof(
        slice.map((p) => p.join('')),
        nearMiss.map((p) => p.join('')),
        text,
      );
      // the first and last segments: empty (a leading/trailing `*`), or a prefix/suffix, maybe spoilt
      const prefix = fc
        .tuple(fc.nat(chars.length), fc.nat(3))
        .map(([length, mode]) => (mode === 0 ? '' : (mode === 1 ? '_' : '') + chars.slice(mode === 1 ? 1 : 0, length).join('')));
      const suffix = fc
        .tuple(fc.nat(chars.length), fc.nat(3))
        .map(([length, mode]) =>
          mode === 0 ? '' : chars.slice(chars.length - length, mode === 1 ? -1 : undefined).join('') + (mode === 1 ? '[' : ''),
        );
      return fc.oneof(
        fc.constantFrom(v, `${v}*`, `*${v}`, `*${v}*`, '*'),
        fc.tuple(prefix, fc.array(middle, { maxLength: 2 }), suffix).map(([first, middles, last]) => [first, ...middles, last].join('*')),
      );
    })
    .map((p) => writable(p).replace(/\*{2,}/g, '*'));
  const ints = [...new Set(items.map((item) => item.i).filter((v): v is number => v !== null))];
  const integer = fc
    .tuple(
      ints.length > 0 ? fc.oneof(fc.constantFrom(...ints), fc.integer({ min: -3, max: 3 })) : fc.integer({ min: -3, max: 3 }),
      fc.boolean(),
    )
    .map(([v, plus]) => (plus && v >= 0 ? `+${v}` : String(v)));
  const number = fc
    .oneof(fc.constantFrom(...NUMBERS, ...items.map((item) => item.n)), fc.double({ noNaN: true, noDefaultInfinity: true }))
    .map(String);
  const bool = fc.constantFrom('true', 'false');
  const date = fc.constantFrom(...DATES);
  const datetime = fc.constantFrom(...INSTANTS.flatMap(datetimeForms), ...DATES);
  const enumValue = fc.constantFrom(...ENUM_VALUES);
  const enumPattern = fc.constantFrom('dr*', '*e', 'LIVE', '*i*', 'live', 'g*e', '*');

  const textField = (property: string, isNullable: boolean) =>
    fc.oneof(
      comparison(property, INFIX, stringValue),
      list(property, stringValue, 'empty()', ...(isNullable ? (['null()'] as const) : [])),
      { arbitrary: fc.tuple(fc.constantFrom('like', 'ilike'), pattern).map(([op, p]) => `${op}(${property},${rqlValue(p)})`), weight: 3 },
      special(property, 'empty()'),
      ...(isNullable ? [special(property, 'null()')] : []),
    );

  const leaf = fc.oneof(
    textField('s', false),
    textField('sn', true),
    textField('ref.email', true),
    fc.oneof(comparison('i', INFIX, integer), list('i', integer, 'null()'), special('i', 'null()')),
    fc.oneof(comparison('n', INFIX, number), list('n', number)),
    fc.oneof(comparison('b', ['eq', 'ne'], bool), list('b', bool, 'null()'), special('b', 'null()')),
    fc.oneof(comparison('d', INFIX, date), list('d', date, 'null()'), special('d', 'null()')),
    fc.oneof(comparison('dt', INFIX, datetime), list('dt', datetime)),
    fc.oneof(
      comparison('e', ['eq', 'ne'], enumValue),
      list('e', enumValue, 'null()'),
      special('e', 'null()'),
      fc.tuple(fc.constantFrom('like', 'ilike'), enumPattern).map(([op, p]) => `${op}(e,${p})`),
    ),
    fc.oneof(
      comparison('tags', ['eq', 'ne'], stringValue),
      list('tags', stringValue),
      fc.tuple(fc.constantFrom('like', 'ilike'), pattern).map(([op, p]) => `${op}(tags,${rqlValue(p)})`),
    ),
    // an empty search (`search=`, `search=''`) adds no condition
    comparison('search', ['eq', 'ne', 'ilike'], fc.oneof(pattern.map(rqlValue), fc.constantFrom('', "''", 'empty()'))),
  );

  const { node } = fc.letrec<{ node: string }>((tie) => {
    const child = tie('node');
    const children = fc.array(child, { minLength: 1, maxLength: 3 });
    return {
      node: fc.oneof(
        { maxDepth: 4, depthIdentifier: 'rql' },
        leaf,
        fc
          .tuple(fc.nat(2), children)
          .map(([form, cs]) => (form === 0 ? `and(${cs.join(',')})` : form === 1 ? cs.join('&') : `(${cs.join(',')})`)),
        fc
          .tuple(fc.nat(2), children)
          .map(([form, cs]) => (form === 0 ? `or(${cs.join(',')})` : form === 1 ? `(${cs.join('|')})` : `(${cs.join(';')})`)),
        child.map((c) => `not(${c})`),
      ),
    };
  });

  return fc
    .tuple(fc.array(node, { minLength: 1, maxLength: 2 }), fc.constantFrom('', ',ordering(-s)', '&ordering()'))
    .map(([conjuncts, ordering]) => conjuncts.join(',') + ordering);
}

const scenarioArb = itemsArb.chain((items) => fc.tuple(fc.constant(items), fc.array(expressionArb(items), { minLength: 1, maxLength: 4 })));

// ---------------------------------------------------------------- tests

describe('rqlToSql', () => {
  it('selects exactly the rows the in-memory evaluator accepts', async () => {
    let matched = 0;
    let total = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ([items, expressions]) => {
        store(items);
        for (const expression of expressions) {
          const expected = memoryIds(items, expression);
          assert.deepEqual(await sqlIds(expression), expected, expression);
          total += 1;
          if (expected.length > 0 && expected.length < items.length) matched += 1;
        }
      }),
      { numRuns: 1000 },
    );
    // Guard against a generator that only ever produces all-or-nothing filters.
    assert.ok(matched > total / 5, `only ${matched} of ${total} expressions split the rows`);
  });

  it('agrees on the cases the semantics hinge on', async () => {
    const names = ['aba', 'a', 'ab', 'abab', '😀', '\uFFFD', '\uE000', 'A[b]', 'a_b', 'a%b', 'Ab', 'É', 'é', '', 'a*b', 'a\\b', 'a\0b'];
    const items: Item[] = names.map((s, index) => ({
      id: index + 1,
      s,
      sn: index % 3 === 0 ? null : s,
      i: index % 4 === 0 ? null : index,
      n: index / 2,
      b: index % 3 === 0 ? null : index % 2 === 0,
      d: null,
      dt: INSTANTS[index % INSTANTS.length]!,
      e: null,
      tags: index % 2 === 0 ? [s, s.toUpperCase()] : [],
      ref: index % 5 === 0 ? null : { email: s },
    }));
    store(items);
    const cases: Record<string, string[]> = {
      'like(s,ab*ba)': [],
      'like(s,a*a)': ['aba'],
      'like(s,*a*a)': ['aba'],
      'like(s,*b*b)': ['abab'],
      'like(s,a*b*b)': ['abab'],
      'gt(s,"\uFFFD")': ['😀'],
      'lt(s,"😀")': names.filter((s) => s !== '😀'),
      'like(s,a*)': ['aba', 'a', 'ab', 'abab', 'a_b', 'a%b', 'a*b', 'a\\b', 'a\0b'],
      'like(s,*b)': ['ab', 'abab', 'a_b', 'a%b', 'Ab', 'a*b', 'a\\b'],
      "like(s,'A[b]*')": ['A[b]'],
      "like(s,'*[b]')": ['A[b]'],
      "like(s,'a_*')": ['a_b'],
      "like(s,'a%*')": ['a%b'],
      "ilike(s,'a?*')": [],
      'ilike(s,ab)': ['ab', 'Ab'],
      'like(s,ab)': ['ab'],
      'ilike(s,é*)': ['É', 'é'],
      'ilike(s,É)': ['É', 'é'],
      'like(s,a\\*b)': ['a*b'],
      'like(s,a\\b)': ['a\\b'],
      'eq(s,empty())': [''],
      'like(s,*)': names,
      'not(like(sn,*))': names.filter((_, index) => index % 3 === 0),
      'ne(sn,aba)': names,
      'ne(sn,ab)': names.filter((s) => s !== 'ab'),
      'out(i,(1,2))': names.filter((_, index) => index % 4 === 0 || index > 2),
      'not(b=true)': names.filter((_, index) => index % 3 === 0 || index % 2 === 1),
      'eq(ref.email,null())': names.filter((_, index) => index % 5 === 0),
      'ilike(tags,AB*)': ['aba', 'ab', 'Ab'],
      'ne(tags,ABA)': names.filter((s) => s !== 'aba'),
      'in(sn,(ab,null()))': names.filter((s, index) => index % 3 === 0 || s === 'ab'),
      'out(sn,(ab,null()))': names.filter((s, index) => index % 3 !== 0 && s !== 'ab'),
      'in(i,(null()))': names.filter((_, index) => index % 4 === 0),
      'out(b,(true,null()))': names.filter((_, index) => index % 3 !== 0 && index % 2 === 1),
      'in(sn,(empty(),a))': ['a', ''],
      'search=': names,
      "search=''": names,
      'not(search=)': names,
      'or(search=,eq(s,ab))': ['ab'],
      'and(ne(search,),eq(s,ab))': ['ab'],
    };
    for (const [expression, expected] of Object.entries(cases)) {
      const ids = names.flatMap((s, index) => (expected.includes(s) ? [index + 1] : []));
      assert.deepEqual(memoryIds(items, expression), ids, `in memory: ${expression}`);
      assert.deepEqual(await sqlIds(expression), ids, `in SQL: ${expression}`);
    }
  });

  /** A row whose text fields all hold `s` and whose other fields are null or fixed. */
  const textItem = (s: string, index: number): Item => ({
    id: index + 1,
    s,
    sn: null,
    i: null,
    n: 0,
    b: null,
    d: null,
    dt: INSTANTS[0]!,
    e: null,
    tags: [s],
    ref: { email: s },
  });

  // The counterexample a CI run once found: a row holding the low half of a surrogate pair alone.
  // The evaluator ordered it as if it were the pair it came from (above U+FFFF); SQLite orders the
  // bytes better-sqlite3 stores for it, which sort with the code point of the same value (U+DE00).
  it('agrees on text that is not well-formed Unicode', async () => {
    const texts = ['\uDE00', '\uD83D', 'a\uDE00', '\uD83Dz', '\uFFFF', '\uFFFE', '\uFFFD', '\uE000', '😀', 'x\uFFFFy', 'a\0\uDE00'];
    const items = texts.map((s, index) => ({ ...textItem(s, index), sn: s }));
    store(items);
    const ids = (...picked: string[]) => picked.map((s) => texts.indexOf(s) + 1).sort((a, b) => a - b);
    const cases: Record<string, number[]> = {
      "lt(sn,'😀'),like(ref.email,*)": ids(...texts.filter((s) => s !== '😀')),
      "gt(sn,'\uE000')": ids('\uFFFF', '\uFFFE', '\uFFFD', '😀'),
      "lt(s,'\uE000')": ids('\uDE00', '\uD83D', 'a\uDE00', '\uD83Dz', 'x\uFFFFy', 'a\0\uDE00'),
      // in a pattern match the lone halves and both noncharacters read as U+FFFD
      "like(s,'\uFFFD*')": ids('\uDE00', '\uD83D', '\uD83Dz', '\uFFFF', '\uFFFE', '\uFFFD'),
      "like(s,'*\uFFFE')": ids('\uDE00', '\uD83D', 'a\uDE00', '\uFFFF', '\uFFFE', '\uFFFD'),
      "ilike(ref.email,'X*Y')": ids('x\uFFFFy'),
      "like(tags,'a*')": ids('a\uDE00', 'a\0\uDE00'),
      "like(s,'*\uFFFD')": ids('\uDE00', '\uD83D', 'a\uDE00', '\uFFFF', '\uFFFE', '\uFFFD'),
      // equality compares the stored text, and there they all differ
      "eq(s,'\uFFFD')": ids('\uFFFD'),
      "like(s,'\uFFFF')": ids('\uFFFF'),
      "in(s,('\uFFFE','😀'))": ids('\uFFFE', '😀'),
    };
    for (const [expression, expected] of Object.entries(cases)) {
      assert.deepEqual(memoryIds(items, expression), expected, `in memory: ${expression}`);
      assert.deepEqual(await sqlIds(expression), expected, `in SQL: ${expression}`);
    }
  });

  const hostile = [
    "'",
    "''",
    '%',
    '_',
    ';--',
    '\\',
    '\\\\',
    "a'b",
    'x%y',
    'x_y',
    '😀',
    'É',
    'é',
    '"',
    '[a]',
    '*',
    '?',
    "Robert'); DROP TABLE items;--",
  ];
  const hostileItems = hostile.map(textItem);
  const quote = (value: string) => (value.includes("'") ? `"${value}"` : `'${value}'`);
  const idsWhere = (predicate: (s: string) => boolean) => hostileItems.filter((item) => predicate(item.s)).map((item) => item.id);

  it('matches hostile values literally', async () => {
    store(hostileItems);
    for (const value of hostile) {
      const exact = idsWhere((s) => s === value);
      assert.deepEqual(await sqlIds(`eq(s,${quote(value)})`), exact, `eq ${value}`);
      assert.deepEqual(await sqlIds(`eq(tags,${quote(value)})`), exact, `eq tags ${value}`);
      assert.deepEqual(await sqlIds(`in(s,(${quote(value)},'zzz'))`), exact, `in ${value}`);
      assert.deepEqual(
        await sqlIds(`ne(s,${quote(value)})`),
        idsWhere((s) => s !== value),
        `ne ${value}`,
      );
      // `*` is the wildcard and `\*` a literal star, so `*${value}*` means "contains value" only without them.
      if (!value.includes('*') && !value.endsWith('\\')) {
        const contains = idsWhere((s) => s.includes(value));
        assert.deepEqual(await sqlIds(`like(s,${quote(`*${value}*`)})`), contains, `like ${value}`);
        assert.deepEqual(
          await sqlIds(`like(ref.email,${quote(`${value}*`)})`),
          idsWhere((s) => s.startsWith(value)),
          `like prefix ${value}`,
        );
        const folded = idsWhere((s) => foldCase(s).includes(foldCase(value)));
        assert.deepEqual(await sqlIds(`search=${quote(value)}`), folded, `search ${value}`);
      }
    }
    assert.deepEqual(
      await sqlIds('like(s,\\*)'),
      idsWhere((s) => s === '*'),
    );
    assert.deepEqual(
      await sqlIds("ilike(s,'é')"),
      idsWhere((s) => s === 'é' || s === 'É'),
      'ilike folds non-ASCII letters',
    );
    assert.deepEqual(sqlite.prepare('SELECT count(*) AS n FROM items').get(), { n: hostile.length }, 'the table is still there');
  });

  it('produces the same SQL text whatever the values, with the values only in the parameters', () => {
    const pairs: [string, string][] = [
      ["eq(s,'a')", `eq(s,"Robert'); DROP TABLE items;--")`],
      ["ne(sn,'a')", "ne(sn,'%_\\\\')"],
      ["in(s,('a','b'))", `in(s,("'",';--'))`],
      ["like(s,'a*b')", "like(s,'%*_[?]')"],
      ["ilike(ref.email,'*a*')", "ilike(ref.email,'*\\\\%😀*')"],
      ["eq(tags,'a')", `eq(tags,"x' OR 1=1 --")`],
      ["search='a'", "search='%'"],
      ['and(gt(n,1),le(i,2),eq(b,true))', 'and(gt(n,-0.5),le(i,-3),eq(b,false))'],
      ['or(eq(d,2026-01-01),lt(dt,2026-01-01T00:00:00Z))', 'or(eq(d,2024-02-29),lt(dt,2025-12-31T22:00:00-03:00))'],
    ];
    assert.deepEqual(query(pairs[0]![1]).compile().parameters, ["Robert'); DROP TABLE items;--"]);
    for (const [first, second] of pairs) {
      const a = query(first).compile();
      const b = query(second).compile();
      assert.equal(a.sql, b.sql, `${first} vs ${second}`);
      assert.notDeepEqual(a.parameters, b.parameters);
      for (const parameter of b.parameters) {
        if (typeof parameter === 'string' && parameter.length > 1)
          assert.ok(!a.sql.includes(parameter), `${parameter} is spliced into ${a.sql}`);
      }
    }
  });

  it('escapes LIKE and GLOB specials in the bound pattern', () => {
    const like = query("ilike(s,'a%_\\*b*')").compile();
    assert.match(like.sql, /lectern_fold\("items"\."s"\) END\) LIKE \? ESCAPE '\\'/);
    assert.deepEqual(like.parameters, ['a\\%\\_*b%']);
    const glob = query("like(s,'A[?]*')").compile();
    assert.match(glob.sql, /"items"\."s" GLOB \?/);
    assert.deepEqual(glob.parameters, ['A[[][?]]*']);
  });

  it("keeps long chains of and/or within SQLite's expression depth", async () => {
    store(hostileItems);
    const leaf = (i: number): RqlFilter => ({ kind: 'field', field: 's', test: { op: 'eq', value: `v${i}` } });
    const leaves = Array.from({ length: 5000 }, (_, i) => leaf(i));
    const run = (filter: RqlFilter) => db.selectFrom('items').select('id').where(rqlToSql(filter, sqlFields)).execute();
    assert.deepEqual(await run({ kind: 'or', children: leaves }), []);
    assert.deepEqual(await run({ kind: 'and', children: leaves }), []);
    const all = await run({ kind: 'not', child: { kind: 'or', children: leaves } });
    assert.equal(all.length, hostileItems.length);
  });

  it('treats the empty filter as true and refuses unmapped fields', async () => {
    store(hostileItems);
    assert.equal((await db.selectFrom('items').select('id').where(rqlToSql(null, sqlFields)).execute()).length, hostileItems.length);
    const { filter } = compileRql('eq(s,a)', catalogue);
    assert.throws(() => rqlToSql(filter, {}), /no scalar SQL mapping for the field 's'/);
    const tags = compileRql('eq(tags,a)', catalogue).filter;
    assert.throws(() => rqlToSql(tags, { tags: column('x') }), /no array SQL mapping for the field 'tags'/);
  });
});

/**
 * The cases above through a saved report over users, on each database: the PostgreSQL dialect
 * compiles the same tree, and scripts/run-tests.mjs provides a server for it.
 */
const databases = [
  { name: 'sqlite', open: () => openSqliteStorage({ file: ':memory:' }) },
  ...(postgresServerUrl ? [{ name: 'postgres', open: async () => openPostgresStorage({ url: await freshPostgresDatabase() }) }] : []),
];

for (const database of databases) {
  describe(`saved reports with null() in a list and an empty search: ${database.name}`, () => {
    it('select what the in-memory evaluator selects', async () => {
      const lectern = createLectern({ storage: await database.open() });
      try {
        const ctx = lectern.context();
        for (const [name, employee_id] of [
          ['Ada', 'E-1'],
          ['Alan', null],
          ['Grace', 'E-2'],
          ['Edsger', 'E-3'],
        ] as const) {
          await lectern.users.create(ctx, { email: `${name.toLowerCase()}@example.com`, name, employee_id });
        }
        const all = (await lectern.users.list(ctx, { ordering: 'name' })).data;
        const cases: Record<string, string[]> = {
          'in(employee_id,(E-1,null()))': ['Ada', 'Alan'],
          'out(employee_id,(E-1,null()))': ['Edsger', 'Grace'],
          'in(employee_id,(null()))': ['Alan'],
          'in(employee_id,(empty(),E-2))': ['Grace'],
          'search=': ['Ada', 'Alan', 'Edsger', 'Grace'],
          'search=""': ['Ada', 'Alan', 'Edsger', 'Grace'],
          'or(search=,name=Ada)': ['Ada'],
          'not(search=),ilike(search,*a*)': ['Ada', 'Alan', 'Edsger', 'Grace'],
          'search=gr': ['Grace'],
        };
        const { catalogue } = reportResourceDefinitions.users!;
        for (const [expression, expected] of Object.entries(cases)) {
          const report = await lectern.savedReports.create(ctx, { name: expression, resource: 'users', expression });
          const results = await lectern.savedReports.results(ctx, report.public_id, { ordering: 'name' });
          const names = results.data.map((user) => (user as { name: string }).name);
          assert.deepEqual(names, expected, `in SQL: ${expression}`);
          const validated = compileRql(expression, catalogue);
          assert.deepEqual(
            all.filter((user) => matchesRql(validated, user)).map((user) => user.name),
            expected,
            `in memory: ${expression}`,
          );
        }
      } finally {
        await lectern.close();
      }
    });
  });
}
