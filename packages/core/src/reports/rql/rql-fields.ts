/**
 * Field catalogues and validation: turns a parsed expression into the typed tree the evaluators run,
 * rejecting unknown fields, wrong operators and malformed values with the position of the token at fault.
 */
import { fieldError, type LecternError } from '../../shared/errors.ts';
import { isUuid } from '../../shared/ids.ts';
import { parseDate, parseDatetime } from '../../shared/time.ts';
import type {
  RqlComparisonNode,
  RqlFilter,
  RqlListNode,
  RqlNode,
  RqlOrder,
  RqlOrderingTerm,
  RqlParsed,
  RqlScalar,
  RqlTest,
  RqlValidated,
  RqlValueNode,
} from './rql-ast.ts';
import { RqlError } from './rql-error.ts';
import { parseRql } from './rql-parser.ts';
import { compileRqlPattern, substringUnlessWildcard } from './rql-pattern.ts';

export type RqlFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'enum' | 'uuid' | 'string-array';

interface RqlFieldBase {
  /**
   * Whether the value can be null, which is what allows `null()` on it. A field of a referenced object
   * (`manager.email`) is nullable when the reference is, even if the referenced field itself is not.
   * Array fields are never null (an absent list is an empty one).
   */
  nullable?: boolean;
}

export type RqlField =
  | (RqlFieldBase & { type: Exclude<RqlFieldType, 'enum' | 'string-array'> })
  | (RqlFieldBase & { type: 'enum'; values: readonly string[] })
  | (RqlFieldBase & {
      type: 'string-array';
      /**
       * For a list of objects named as a whole (`groups` of `{public_id, name}`): the list fields it
       * stands for (`groups.public_id`, `groups.name`). A test on it holds when it holds on any of them,
       * so `eq(groups,Sales)` and `eq(groups,<id>)` both work.
       */
      anyOf?: readonly string[];
    });

/** The properties of one resource: its scalar fields and those of the objects it references, by dotted name. */
export interface RqlCatalogue {
  fields: Readonly<Record<string, RqlField>>;
  /** fields the `search` pseudo-field covers (those the resource's list `search` covers); none disables it */
  searchable: readonly string[];
}

const ORDERED_TYPES: readonly RqlFieldType[] = ['string', 'integer', 'number', 'date', 'datetime'];
const TEXT_TYPES: readonly RqlFieldType[] = ['string', 'enum', 'uuid', 'string-array'];
const SEARCH_OPERATORS: readonly string[] = ['eq', 'ne', 'ilike'];

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/**
 * Lone surrogates cannot be stored as UTF-8, so SQL would see another string than JavaScript; U+0000
 * ends a pattern in SQLite and cannot be stored in PostgreSQL text at all.
 */
const UNUSABLE_CHARACTER = /[\p{Cs}\0]/u;

const TYPE_NAMES: Record<RqlFieldType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  date: 'a date (YYYY-MM-DD)',
  datetime: 'a datetime (YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS[.fff]] with optional Z or ±HH:MM)',
  enum: 'one of the listed values',
  uuid: 'a UUID',
  'string-array': 'a string',
};

const TYPE_LABELS: Record<RqlFieldType, string> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  enum: 'enum',
  uuid: 'UUID',
  'string-array': 'list',
};

class Validator {
  constructor(private readonly catalogue: RqlCatalogue) {
    for (const name of catalogue.searchable) {
      const field = catalogue.fields[name];
      if (!field || !TEXT_TYPES.includes(field.type))
        throw new Error(`RQL catalogue: searchable field '${name}' is not a text field of the catalogue`);
    }
    for (const [name, field] of Object.entries(catalogue.fields)) {
      if (field.type !== 'string-array' || !field.anyOf) continue;
      for (const target of field.anyOf) {
        const aliased = catalogue.fields[target];
        if (aliased?.type !== 'string-array' || aliased.anyOf)
          throw new Error(`RQL catalogue: '${name}' stands for '${target}', which is not a plain list field`);
      }
    }
  }

  /**
   * null is no condition: an empty search. As in django-rql, where it is an empty `Q()`, it drops
   * out of the and()/or() around it and takes a not() over it along, rather than counting as true.
   */
  node(node: RqlNode): RqlFilter | null {
    switch (node.type) {
      case 'and':
      case 'or': {
        const children = node.children.map((child) => this.node(child)).filter((child) => child !== null);
        if (children.length <= 1) return children[0] ?? null;
        return { kind: node.type, children };
      }
      case 'not': {
        const child = this.node(node.child);
        return child === null ? null : { kind: 'not', child };
      }
      case 'comparison':
        return this.isSearch(node.property) ? this.search(node) : this.comparison(node);
      case 'list':
        return this.list(node);
    }
  }

  ordering(terms: readonly RqlOrderingTerm[]): RqlOrder[] {
    // A repeated field counts once, where it first appears: later terms could never break a tie
    // the first one left (django-rql reads it so, and so does the lists' `ordering=` parameter).
    const ordering: RqlOrder[] = [];
    for (const term of terms) {
      const field = this.field(term.field, term.position);
      if (field.type === 'string-array') throw new RqlError(term.position, `Cannot order by the list field '${term.field}'`);
      if (!ordering.some((earlier) => earlier.field === term.field)) ordering.push({ field: term.field, descending: term.descending });
    }
    return ordering;
  }

  private comparison(node: RqlComparisonNode): RqlFilter {
    const { operator, property, value } = node;
    const field = this.field(property, node.propertyPosition);
    if (value.kind !== 'string' && operator !== 'eq' && operator !== 'ne') {
      throw new RqlError(value.position, `${value.kind}() can only be used with eq and ne, or in an in() or out() list`);
    }
    switch (operator) {
      case 'eq':
      case 'ne': {
        const test: RqlTest =
          value.kind === 'null' ? this.nullTest(property, field, value) : { op: 'eq', value: this.typed(property, field, value) };
        const filter = this.leaf(property, field, test);
        return operator === 'ne' ? { kind: 'not', child: filter } : filter;
      }
      case 'gt':
      case 'ge':
      case 'lt':
      case 'le':
        if (!ORDERED_TYPES.includes(field.type)) {
          throw new RqlError(
            node.position,
            `${operator}() cannot be used with the ${TYPE_LABELS[field.type]} field '${property}'`,
            'Use eq, ne, in or out',
          );
        }
        return this.leaf(property, field, { op: operator, value: this.typed(property, field, value) });
      case 'like':
      case 'ilike': {
        if (!TEXT_TYPES.includes(field.type)) {
          throw new RqlError(
            node.position,
            `${operator}() cannot be used with the ${TYPE_LABELS[field.type]} field '${property}'`,
            'Patterns apply to text fields only',
          );
        }
        if (value.kind !== 'string') throw new RqlError(value.position, `${operator}() needs a pattern`);
        this.checkCharacters(value);
        return this.leaf(property, field, { op: 'like', pattern: compileRqlPattern(value), caseInsensitive: operator === 'ilike' });
      }
    }
  }

  private list(node: RqlListNode): RqlFilter {
    const { property, operator } = node;
    if (this.isSearch(property))
      throw new RqlError(node.position, `${operator}() cannot be used with search`, `search supports ${SEARCH_OPERATORS.join(', ')}`);
    const field = this.field(property, node.propertyPosition);
    // a null() member is a null test beside the others: in() holds on null, out() does not (django-rql's reading)
    const nullMember = node.values.find((value) => value.kind === 'null');
    const values = node.values.filter((value) => value.kind !== 'null').map((value) => this.typed(property, field, value));
    const tests: RqlTest[] = [
      ...(values.length > 0 ? [{ op: 'in' as const, values }] : []),
      ...(nullMember ? [this.nullTest(property, field, nullMember)] : []),
    ];
    const children = tests.map((test) => this.leaf(property, field, test));
    const filter: RqlFilter = children.length === 1 ? children[0]! : { kind: 'or', children };
    return operator === 'out' ? { kind: 'not', child: filter } : filter;
  }

  /** null for an empty search (`search=`, `search=""`, `search=empty()`), which adds no condition. */
  private search(node: RqlComparisonNode): RqlFilter | null {
    const { operator, value } = node;
    if (!SEARCH_OPERATORS.includes(operator)) {
      throw new RqlError(node.position, `${operator}() cannot be used with search`, `search supports ${SEARCH_OPERATORS.join(', ')}`);
    }
    if (value.kind === 'null') throw new RqlError(value.position, 'null() cannot be searched for', 'Write search= to search for nothing');
    if (value.kind === 'empty' || value.value === '') return null;
    this.checkCharacters(value);
    const pattern = substringUnlessWildcard(compileRqlPattern(value));
    const children = this.catalogue.searchable.map((name) =>
      this.leaf(name, this.catalogue.fields[name]!, { op: 'like', pattern, caseInsensitive: true }),
    );
    const filter: RqlFilter = children.length === 1 ? children[0]! : { kind: 'or', children };
    return operator === 'ne' ? { kind: 'not', child: filter } : filter;
  }

  private leaf(name: string, field: RqlField, test: RqlTest): RqlFilter {
    if (field.type !== 'string-array') return { kind: 'field', field: name, test };
    if (!field.anyOf) return { kind: 'some', field: name, test };
    const children = field.anyOf.map((target): RqlFilter => ({ kind: 'some', field: target, test }));
    return children.length === 1 ? children[0]! : { kind: 'or', children };
  }

  private isSearch(property: string): boolean {
    return property === 'search' && this.catalogue.searchable.length > 0 && !Object.hasOwn(this.catalogue.fields, property);
  }

  private field(name: string, position: number): RqlField {
    if (Object.hasOwn(this.catalogue.fields, name)) return this.catalogue.fields[name]!;
    const names = Object.keys(this.catalogue.fields);
    const children = names.filter((candidate) => candidate.startsWith(`${name}.`));
    const hint =
      children.length > 0
        ? `'${name}' is an object; use one of its fields: ${children.join(', ')}`
        : `Known fields: ${[...names, ...(this.catalogue.searchable.length > 0 ? ['search'] : [])].join(', ')}`;
    throw new RqlError(position, `Unknown field '${name}'`, hint);
  }

  private nullTest(property: string, field: RqlField, value: RqlValueNode): RqlTest {
    if (field.type === 'string-array') {
      throw new RqlError(value.position, `The list field '${property}' is never null`, `Test membership with eq(${property},value)`);
    }
    if (!field.nullable)
      throw new RqlError(value.position, `'${property}' is never null`, 'null() can only match fields that can be empty of a value');
    return { op: 'null' };
  }

  private typed(property: string, field: RqlField, value: RqlValueNode): RqlScalar {
    if (value.kind === 'null') throw new RqlError(value.position, 'null() can only be used with eq and ne');
    if (value.kind === 'empty') {
      if (field.type === 'string') return '';
      throw new RqlError(
        value.position,
        `empty() cannot be used with the ${TYPE_LABELS[field.type]} field '${property}'`,
        'empty() is the empty string',
      );
    }
    this.checkCharacters(value);
    const raw = value.value;
    const invalid = (hint?: string) =>
      new RqlError(value.position, `Expected ${TYPE_NAMES[field.type]} for '${property}', got '${raw}'`, hint);
    switch (field.type) {
      case 'string':
      case 'string-array':
        return raw;
      case 'integer': {
        const number = Number(raw);
        if (INTEGER.test(raw) && Number.isSafeInteger(number)) return number;
        throw invalid(INTEGER.test(raw) ? 'The integer is too large to be represented exactly' : undefined);
      }
      case 'number': {
        const number = Number(raw);
        if (NUMBER.test(raw) && Number.isFinite(number)) return number;
        throw invalid();
      }
      case 'boolean':
        if (raw === 'true') return true;
        if (raw === 'false') return false;
        throw invalid();
      case 'date': {
        const date = parseDate(raw);
        if (date !== null) return date;
        throw invalid(parseDatetime(raw) !== null ? 'A date field takes a date without a time' : undefined);
      }
      case 'datetime': {
        // A bare date is that day's midnight UTC, so lt(created,2026-02-01) means "before February".
        const datetime = parseDate(raw) !== null ? `${raw}T00:00:00.000Z` : parseDatetime(raw);
        if (datetime !== null) return datetime;
        throw invalid();
      }
      case 'enum':
        if (field.values.includes(raw)) return raw;
        throw invalid(`Allowed: ${field.values.join(', ')}`);
      case 'uuid':
        if (isUuid(raw)) return raw.toLowerCase();
        throw invalid();
    }
  }

  private checkCharacters(value: RqlValueNode & { kind: 'string' }): void {
    if (UNUSABLE_CHARACTER.test(value.value)) {
      throw new RqlError(value.position, 'The value contains an unpaired surrogate or U+0000', 'Neither can be stored or matched');
    }
  }
}

/**
 * Checks a parsed expression against a resource's fields and converts every value to its field's type.
 * `ne`/`out` become `not(eq)`/`not(in)` (the same thing under RQL's two-valued logic) and `search`
 * becomes an `or` of case-insensitive pattern tests over the searchable fields.
 */
export function validateRql(parsed: RqlParsed, catalogue: RqlCatalogue): RqlValidated {
  const validator = new Validator(catalogue);
  return {
    filter: parsed.filter === null ? null : validator.node(parsed.filter),
    ordering: validator.ordering(parsed.ordering),
  };
}

/** parseRql then validateRql; throws RqlError. */
export function compileRql(expression: string, catalogue: RqlCatalogue): RqlValidated {
  return validateRql(parseRql(expression), catalogue);
}

/** The core's 422 for a bad saved-report expression: `{ expression: ['Position N: …'] }`. */
export function rqlToFieldError(error: RqlError, field = 'expression'): LecternError {
  return fieldError(field, `Position ${error.position}: ${error.reason}${error.hint ? `. ${error.hint}` : ''}`);
}
