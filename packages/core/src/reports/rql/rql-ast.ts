/**
 * The two trees of the RQL engine.
 *
 * - The parsed tree (`RqlNode`) mirrors what was written: operators as spelled, values as raw strings,
 *   and the position of every token, because validation errors must point back into the text.
 * - The validated tree (`RqlFilter`) is what evaluators consume: field types resolved, values converted,
 *   `ne`/`out` rewritten as `not(eq)`/`not(in)` and `search` expanded. Keeping that tree small is what
 *   lets the in-memory evaluator and every SQL compiler agree: there are only four leaf tests to get right.
 */

// ---------------------------------------------------------------- parsed tree

export type RqlValueNode =
  /**
   * An unquoted or quoted value, quotes removed. The bare word `null` is this kind, with value "null".
   * `position` is that of the token (its opening quote when quoted).
   */
  | { kind: 'string'; value: string; quoted: boolean; position: number }
  /** `null()` */
  | { kind: 'null'; position: number }
  /** `empty()` */
  | { kind: 'empty'; position: number };

export const rqlComparisonOperators = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like', 'ilike'] as const;
export type RqlComparisonOperator = (typeof rqlComparisonOperators)[number];

export type RqlListOperator = 'in' | 'out';

export interface RqlComparisonNode {
  type: 'comparison';
  operator: RqlComparisonOperator;
  property: string;
  propertyPosition: number;
  value: RqlValueNode;
  position: number;
}

export interface RqlListNode {
  type: 'list';
  operator: RqlListOperator;
  property: string;
  propertyPosition: number;
  /** never empty */
  values: RqlValueNode[];
  position: number;
}

export interface RqlAndNode {
  type: 'and';
  children: RqlNode[];
  position: number;
}

export interface RqlOrNode {
  type: 'or';
  children: RqlNode[];
  position: number;
}

export interface RqlNotNode {
  type: 'not';
  child: RqlNode;
  position: number;
}

export type RqlNode = RqlComparisonNode | RqlListNode | RqlAndNode | RqlOrNode | RqlNotNode;

export interface RqlOrderingTerm {
  field: string;
  descending: boolean;
  position: number;
}

export interface RqlParsed {
  /** null for an empty expression or one that only orders */
  filter: RqlNode | null;
  ordering: RqlOrderingTerm[];
}

// ---------------------------------------------------------------- validated tree

/**
 * A compiled `like` pattern: literal segments with one wildcard between each pair.
 * `abc` is ['abc'], `abc*` is ['abc', ''], `*a*c` is ['', 'a', 'c']. Because `**` is rejected,
 * every segment except the first and last is non-empty.
 */
export interface RqlPattern {
  readonly segments: readonly string[];
}

/**
 * A value converted to its field's type. Dates are `YYYY-MM-DD`, datetimes UTC ISO strings with
 * milliseconds and `Z` (the storage form, so both compare correctly as strings), UUIDs lower-case.
 */
export type RqlScalar = string | number | boolean;

export type RqlTest =
  | { op: 'null' }
  | { op: 'eq' | 'gt' | 'ge' | 'lt' | 'le'; value: RqlScalar }
  | { op: 'in'; values: readonly RqlScalar[] }
  /** caseInsensitive folds both sides with foldCase (shared/fold-case.ts) */
  | { op: 'like'; pattern: RqlPattern; caseInsensitive: boolean };

export type RqlFilter =
  /** a test on a scalar field; false when the field is null, except `{ op: 'null' }` */
  | { kind: 'field'; field: string; test: RqlTest }
  /** an array field: true when some element passes the test (never `{ op: 'null' }`) */
  | { kind: 'some'; field: string; test: RqlTest }
  | { kind: 'and'; children: readonly RqlFilter[] }
  | { kind: 'or'; children: readonly RqlFilter[] }
  | { kind: 'not'; child: RqlFilter };

export interface RqlOrder {
  field: string;
  descending: boolean;
}

export interface RqlValidated {
  filter: RqlFilter | null;
  ordering: RqlOrder[];
}
