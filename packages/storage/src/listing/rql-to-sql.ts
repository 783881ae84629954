/**
 * Compiles validated RQL (packages/core/src/reports/rql) to a kysely boolean expression that selects
 * exactly the rows the core's in-memory evaluator accepts.
 *
 * - Values only ever reach SQL through sql.val (bound parameters); the SQL text depends on the shape
 *   of the expression alone, never on the values in it.
 * - Two-valued logic: every scalar test is written `col IS NOT NULL AND <test>`, so it is false rather
 *   than NULL on a null column and NOT/AND/OR behave as in JavaScript. Array tests are EXISTS
 *   subqueries, which are never NULL; no guard is needed inside them.
 * - Booleans are bound as the dialect stores them; dates and datetimes are the ISO strings the
 *   validator produced, which compare correctly as strings against the stored ISO strings.
 */
import { PostgresAdapter, sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { foldPattern } from '@lectern/core/ports';
import type { RqlFilter, RqlPattern, RqlScalar, RqlTest } from '@lectern/core/ports';
import { foldedSql } from '../shared/fold-sql.ts';

export type RqlSqlField =
  /**
   * A scalar column (or any expression over the query's tables, e.g. a LEFT JOINed column for
   * `manager.email`). Text must compare with binary collation: resolve a column declared
   * `COLLATE NOCASE` as sql`${ref} COLLATE BINARY`, or its `=` and `<` would ignore case.
   */
  | {
      kind: 'scalar';
      column: Expression<unknown>;
      /**
       * The alias of a join of the list query the column reads (`m` for the manager's email), which
       * the list adds only when a report uses such a field, so other reads pay nothing for it.
       */
      join?: string;
      /** a stored column equal to foldCase(column), which `ilike` compares instead of folding each row */
      folded?: Expression<unknown>;
    }
  /**
   * An array field (`tags`, `groups`): given a test on one element, an expression true when some
   * element of the row's array passes it, typically
   * sql`EXISTS (SELECT 1 FROM item_tags it WHERE it.item_id = items.id AND ${test(sql.ref('it.name'))})`.
   */
  | { kind: 'array'; some: (test: (element: Expression<unknown>) => Expression<SqlBool>) => Expression<SqlBool> };

/** How each field of a resource's catalogue is reached in SQL, by the same dotted names. */
export type RqlSqlFields = Readonly<Record<string, RqlSqlField>>;

/** The parts of the translation that differ between database engines. */
export interface RqlSqlDialect {
  /** Case-sensitive pattern match of a non-null text expression. */
  like(text: Expression<unknown>, pattern: RqlPattern): Expression<SqlBool>;
  /** The text folded as core's foldCase folds it. */
  fold(text: Expression<unknown>): Expression<unknown>;
  /**
   * Pattern match of text already folded with foldCase (a stored folded column, or fold(text));
   * the pattern is folded here.
   */
  ilikeFolded(folded: Expression<unknown>, pattern: RqlPattern): Expression<SqlBool>;
  /** A boolean as a bound parameter in the storage representation. */
  boolean(value: boolean): Expression<unknown>;
}

/** `\`, `%` and `_` are LIKE's special characters when the escape character is `\`. */
const escapeLike = (literal: string) => literal.replace(/[\\%_]/g, (char) => `\\${char}`);
const likePattern = (pattern: RqlPattern) => pattern.segments.map(escapeLike).join('%');

/** GLOB has no escape character; a special character is made literal by a one-character class. */
const escapeGlob = (literal: string) => literal.replace(/[*?[]/g, (char) => `[${char}]`);
const globPattern = (pattern: RqlPattern) => pattern.segments.map(escapeGlob).join('*');

/**
 * SQLite.
 *
 * Case-sensitive `like` uses GLOB: SQLite's LIKE ignores ASCII case and the per-connection
 * `PRAGMA case_sensitive_like` cannot be set per query, while GLOB matches code point by code point.
 * `[*]`, `[?]` and `[[]` make GLOB's special characters literal (`]` outside a class already is).
 *
 * Case-insensitive `ilike` folds both sides with core's foldCase, which folds every Unicode letter
 * (SQLite's lower() and LIKE fold only ASCII): the row's text through the `lectern_fold` function
 * registered on every connection, or a stored folded column where the field has one (its index then
 * serves an exact match), the pattern's segments in JavaScript. LIKE's own ASCII folding then has
 * nothing left to change.
 *
 * A pattern without wildcards is an equality, which an index can serve.
 *
 * What LIKE and GLOB read differs from what `=` compares in two ways the evaluator copies (see
 * matchesRqlPattern): they stop at U+0000, and they read lone surrogates, U+FFFE and U+FFFF as U+FFFD.
 *
 * (PostgreSQL would use LIKE for `like`, as it is case-sensitive there; for `fold` a function
 * computing foldCase exactly (lower(normalize(col, NFC)) differs from it on a few letters, İ among
 * them), or stored folded columns; and it would translate U+FFFE and U+FFFF to U+FFFD on both sides
 * of a pattern match.)
 */
export const sqliteRqlDialect: RqlSqlDialect = {
  like(text, pattern) {
    if (pattern.segments.length === 1) return sql<SqlBool>`${text} = ${sql.val(pattern.segments[0])}`;
    return sql<SqlBool>`${text} GLOB ${sql.val(globPattern(pattern))}`;
  },
  fold: foldedSql,
  ilikeFolded(folded, pattern) {
    const { segments } = foldPattern(pattern);
    if (segments.length === 1) return sql<SqlBool>`${folded} = ${sql.val(segments[0])}`;
    return sql<SqlBool>`${folded} LIKE ${sql.val(likePattern({ segments }))} ESCAPE '\\'`;
  },
  boolean: (value) => sql.val(value ? 1 : 0),
};

/**
 * PostgreSQL: its LIKE is case-sensitive, so `like` is LIKE with `\` escaping (SQLite needs GLOB for
 * that); `ilike` compares text folded by `lectern_fold` (migration 0010) or a stored folded column,
 * as on SQLite.
 */
export const postgresRqlDialect: RqlSqlDialect = {
  like(text, pattern) {
    if (pattern.segments.length === 1) return sql<SqlBool>`${text} = ${sql.val(pattern.segments[0])}`;
    return sql<SqlBool>`${text} LIKE ${sql.val(likePattern(pattern))} ESCAPE '\\'`;
  },
  fold: foldedSql,
  ilikeFolded: sqliteRqlDialect.ilikeFolded,
  boolean: sqliteRqlDialect.boolean,
};

/** The dialect of the database `db` talks to. */
export const rqlDialectOf = (db: Pick<Kysely<never>, 'getExecutor'>): RqlSqlDialect =>
  db.getExecutor().adapter instanceof PostgresAdapter ? postgresRqlDialect : sqliteRqlDialect;

const COMPARISON_SQL = { eq: sql.raw('='), gt: sql.raw('>'), ge: sql.raw('>='), lt: sql.raw('<'), le: sql.raw('<=') } as const;

class Compiler {
  constructor(
    private readonly fields: RqlSqlFields,
    private readonly dialect: RqlSqlDialect,
  ) {}

  filter(filter: RqlFilter): RawBuilder<SqlBool> {
    switch (filter.kind) {
      case 'field': {
        const { column, folded } = this.scalar(filter.field);
        if (filter.test.op === 'null') return sql<SqlBool>`${column} IS NULL`;
        return sql<SqlBool>`(${column} IS NOT NULL AND ${this.test(column, filter.test, folded)})`;
      }
      case 'some': {
        const test = filter.test;
        return sql<SqlBool>`(${this.array(filter.field)((element) => this.test(element, test))})`;
      }
      case 'and':
        return this.balanced(
          filter.children.map((child) => this.filter(child)),
          sql` AND `,
        );
      case 'or':
        return this.balanced(
          filter.children.map((child) => this.filter(child)),
          sql` OR `,
        );
      case 'not':
        return sql<SqlBool>`NOT (${this.filter(filter.child)})`;
    }
  }

  /**
   * `a AND b AND c …` as a balanced tree of parenthesised halves. SQLite parses a flat chain into a
   * tree as deep as the chain is long and refuses one deeper than 1 000; halves keep the depth at
   * log2 of the length, with the same meaning.
   */
  private balanced(terms: readonly RawBuilder<SqlBool>[], operator: RawBuilder<unknown>): RawBuilder<SqlBool> {
    if (terms.length <= 2) return sql<SqlBool>`(${sql.join(terms, operator)})`;
    const middle = Math.ceil(terms.length / 2);
    return sql<SqlBool>`(${this.balanced(terms.slice(0, middle), operator)}${operator}${this.balanced(terms.slice(middle), operator)})`;
  }

  private test(column: Expression<unknown>, test: RqlTest, folded?: Expression<unknown>): Expression<SqlBool> {
    switch (test.op) {
      case 'null':
        return sql<SqlBool>`${column} IS NULL`;
      case 'in':
        return sql<SqlBool>`${column} IN (${sql.join(test.values.map((value) => this.value(value)))})`;
      case 'like':
        if (!test.caseInsensitive) return this.dialect.like(column, test.pattern);
        return this.dialect.ilikeFolded(folded ?? this.dialect.fold(column), test.pattern);
      default:
        return sql<SqlBool>`${column} ${COMPARISON_SQL[test.op]} ${this.value(test.value)}`;
    }
  }

  private value(value: RqlScalar): Expression<unknown> {
    return typeof value === 'boolean' ? this.dialect.boolean(value) : sql.val(value);
  }

  private scalar(name: string): Extract<RqlSqlField, { kind: 'scalar' }> {
    const field = this.fields[name];
    if (field?.kind !== 'scalar') throw new Error(`RQL: no scalar SQL mapping for the field '${name}'`);
    return field;
  }

  private array(name: string): Extract<RqlSqlField, { kind: 'array' }>['some'] {
    const field = this.fields[name];
    if (field?.kind !== 'array') throw new Error(`RQL: no array SQL mapping for the field '${name}'`);
    return field.some;
  }
}

/**
 * The WHERE condition of a validated filter (RqlValidated.filter); null, the empty filter, is TRUE.
 * Use it as `query.where(rqlToSql(validated.filter, fields))`.
 */
export function rqlToSql(filter: RqlFilter | null, fields: RqlSqlFields, dialect: RqlSqlDialect = sqliteRqlDialect): Expression<SqlBool> {
  if (filter === null) return sql<SqlBool>`1 = 1`;
  return new Compiler(fields, dialect).filter(filter);
}
