/**
 * Parser for the RQL dialect of saved reports (docs/rql.md), written by hand rather than with a
 * grammar tool so that every error names the exact character and says what would have been valid.
 *
 * Grammar (no whitespace is skipped: spaces belong to values only, as in lib-rql):
 *
 *   expression  := ε | top (("," | "&") top)*
 *   top         := ordering | unary
 *   unary       := "(" group ")" | call | property "=" value | property "=" op "=" value
 *   group       := conjunction (("|" | ";") conjunction)*
 *   conjunction := unary (("," | "&") unary)*            -- "," only inside a group
 *   call        := cmp "(" property "," value ")"          -- eq ne gt ge lt le like ilike
 *                | list "(" property "," "(" value ("," value)* ")" ")"
 *                | ("and" | "or") "(" args ")" | "not" "(" arg ")"
 *   args        := arg ("," arg)*      arg := unary ("&" unary)*
 *   ordering    := "ordering" "(" [ ["+"|"-"] property ("," ["+"|"-"] property)* ] ")"
 *
 * Keywords are only keywords before "(" or between "=" signs, so `eq(and,or)` and `and=or` compare
 * the property `and` with the string "or".
 */
import {
  rqlComparisonOperators,
  type RqlComparisonNode,
  type RqlComparisonOperator,
  type RqlListNode,
  type RqlNode,
  type RqlOrderingTerm,
  type RqlParsed,
  type RqlValueNode,
} from './rql-ast.ts';
import { RqlError } from './rql-error.ts';
import { compileRqlPattern } from './rql-pattern.ts';

/** Deep enough for any report a person writes, shallow enough that recursion cannot exhaust the stack. */
export const RQL_MAX_DEPTH = 32;
/**
 * The most tests one expression may hold (each comparison and each value of an in()/out() list is
 * one): each becomes a condition in SQL, and databases refuse statements past a size of their own.
 */
export const RQL_MAX_TERMS = 256;

/** The pseudo-property whose value may be empty: an empty search is no condition at all (docs/rql.md). */
const SEARCH = 'search';
const INFIX_OPERATORS: readonly string[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
const CALL_COMPARISONS: readonly string[] = rqlComparisonOperators;
const KNOWN_FUNCTIONS = 'eq, ne, gt, ge, lt, le, like, ilike, in, out, and, or, not, ordering';

const LETTER = /^[A-Za-z]$/;
const PROPERTY_CHAR = /^[A-Za-z0-9_.-]$/;
/** letters and digits of any script, `_ . - : + @ *`, space and backslash */
const VALUE_CHAR = /^[\p{L}\p{M}\p{N}_.\-:+@* \\]$/u;

const SPACE_HINT = 'Spaces are allowed only inside values';
const PAGINATION_HINT = 'Pagination of a saved report comes from page and page_size';

function describe(char: string): string {
  if (char === ' ') return 'a space';
  if (char === "'") return `"'"`;
  const code = char.codePointAt(0)!;
  if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${char}'`;
}

class Parser {
  private pos = 0;
  private depth = 0;
  private terms = 0;

  constructor(private readonly src: string) {}

  parse(): RqlParsed {
    if (this.src.length === 0) return { filter: null, ordering: [] };
    const conjuncts: RqlNode[] = [];
    let ordering: RqlOrderingTerm[] | undefined;
    for (;;) {
      if (this.src.startsWith('ordering(', this.pos)) {
        if (ordering) throw new RqlError(this.pos, 'ordering() may appear only once');
        ordering = this.ordering();
      } else {
        conjuncts.push(this.unary());
      }
      const separator = this.peek();
      if (separator !== ',' && separator !== '&') break;
      this.pos++;
    }
    if (this.pos < this.src.length) throw this.unexpectedAfterTerm();
    const filter =
      conjuncts.length === 0 ? null : conjuncts.length === 1 ? conjuncts[0]! : { type: 'and' as const, children: conjuncts, position: 0 };
    return { filter, ordering: ordering ?? [] };
  }

  // ------------------------------------------------------------ expressions

  private unary(): RqlNode {
    if (this.depth >= RQL_MAX_DEPTH) throw new RqlError(this.pos, `Expression nests more than ${RQL_MAX_DEPTH} levels deep`);
    this.depth++;
    try {
      return this.unaryAt(this.pos);
    } finally {
      this.depth--;
    }
  }

  private unaryAt(start: number): RqlNode {
    const char = this.peek();
    if (char === '(') return this.group(start);
    if (char === undefined || !LETTER.test(char)) throw this.expectedExpression(char);
    const name = this.property();
    const next = this.peek();
    if (next === '(') return this.call(name, start);
    if (next === '=') return this.infixComparison(name, start);
    throw new RqlError(this.pos, `Expected '=' or '(' after '${name}'`, next === ' ' ? SPACE_HINT : undefined);
  }

  private group(start: number): RqlNode {
    this.pos++;
    const alternatives = [this.conjunction(true)];
    while (this.peek() === '|' || this.peek() === ';') {
      this.pos++;
      alternatives.push(this.conjunction(true));
    }
    if (this.peek() !== ')') throw this.expected("')'", "'('", start);
    this.pos++;
    return alternatives.length === 1 ? alternatives[0]! : { type: 'or', children: alternatives, position: start };
  }

  private conjunction(allowComma: boolean): RqlNode {
    const start = this.pos;
    const items = [this.unary()];
    while (this.peek() === '&' || (allowComma && this.peek() === ',')) {
      this.pos++;
      items.push(this.unary());
    }
    return items.length === 1 ? items[0]! : { type: 'and', children: items, position: start };
  }

  private call(name: string, start: number): RqlNode {
    if (CALL_COMPARISONS.includes(name)) return this.comparisonCall(name as RqlComparisonOperator, start);
    switch (name) {
      case 'in':
      case 'out':
        return this.listCall(name, start);
      case 'and':
      case 'or':
        return this.logicalCall(name, start);
      case 'not':
        return this.notCall(start);
      case 'ordering':
        throw new RqlError(start, 'ordering() is allowed only at the top level', 'Write it beside the filter: eq(a,b),ordering(-c)');
      case 'select':
        throw new RqlError(start, 'select() is not supported in saved reports', "A report always returns the resource's full list shape");
      case 'limit':
      case 'offset':
        throw new RqlError(start, `${name}() is not supported in saved reports`, PAGINATION_HINT);
      case 'null':
      case 'empty':
        throw new RqlError(start, `${name}() is a value, not an expression`, `Compare a property with it: eq(prop,${name}())`);
      default:
        throw new RqlError(start, `Unknown function '${name}'`, `Known functions: ${KNOWN_FUNCTIONS}`);
    }
  }

  private comparisonCall(operator: RqlComparisonOperator, start: number): RqlComparisonNode {
    this.countTerm(start);
    this.pos++;
    const propertyPosition = this.pos;
    const property = this.requiredProperty();
    this.expectChar(',', `after the property '${property}'`);
    const value = this.value("after ','", property === SEARCH);
    this.closeCall(operator, `${operator}() takes a property and one value`);
    // A pattern's syntax does not depend on the field, so `**` is a syntax error caught here.
    if ((operator === 'like' || operator === 'ilike') && value.kind === 'string') compileRqlPattern(value);
    return { type: 'comparison', operator, property, propertyPosition, value, position: start };
  }

  private listCall(operator: 'in' | 'out', start: number): RqlListNode {
    this.pos++;
    const propertyPosition = this.pos;
    const property = this.requiredProperty();
    this.expectChar(',', `after the property '${property}'`);
    if (this.peek() !== '(') {
      throw new RqlError(this.pos, `Expected '(' to open the list of values of ${operator}()`, `Write ${operator}(${property},(v1,v2))`);
    }
    const listStart = this.pos;
    this.pos++;
    this.countTerm(this.pos);
    const values = [this.value("after '('")];
    while (this.peek() === ',') {
      this.pos++;
      this.countTerm(this.pos);
      values.push(this.value("after ','"));
    }
    if (this.peek() !== ')') throw this.expected("',' or ')'", 'list of values', listStart);
    this.pos++;
    this.closeCall(operator, `${operator}() takes a property and one parenthesised list`);
    return { type: 'list', operator, property, propertyPosition, values, position: start };
  }

  private logicalCall(operator: 'and' | 'or', start: number): RqlNode {
    this.pos++;
    const children = [this.conjunction(false)];
    while (this.peek() === ',') {
      this.pos++;
      children.push(this.conjunction(false));
    }
    if (this.peek() !== ')') throw this.expected("',' or ')'", `${operator}(`, start);
    this.pos++;
    return { type: operator, children, position: start };
  }

  private notCall(start: number): RqlNode {
    this.pos++;
    const child = this.conjunction(false);
    if (this.peek() === ',') throw new RqlError(this.pos, 'not() takes exactly one expression', 'Combine several with and(...) inside it');
    if (this.peek() !== ')') throw this.expected("')'", 'not(', start);
    this.pos++;
    return { type: 'not', child, position: start };
  }

  private infixComparison(property: string, start: number): RqlComparisonNode {
    if (property === 'limit' || property === 'offset') {
      throw new RqlError(start, `${property}= is not supported in saved reports`, PAGINATION_HINT);
    }
    this.countTerm(start);
    this.pos++;
    const first = this.value("after '='", property === SEARCH);
    if (this.peek() !== '=' || first.kind !== 'string' || first.quoted) {
      return { type: 'comparison', operator: 'eq', property, propertyPosition: start, value: first, position: start };
    }
    const operator = first.value;
    if (!INFIX_OPERATORS.includes(operator)) {
      const hint = ['like', 'ilike'].includes(operator)
        ? `Write ${operator}(${property},pattern)`
        : ['in', 'out'].includes(operator)
          ? `Write ${operator}(${property},(v1,v2))`
          : 'Use one of =eq=, =ne=, =gt=, =ge=, =lt=, =le=';
      throw new RqlError(first.position, `Unknown operator '=${operator}='`, hint);
    }
    this.pos++;
    const value = this.value(`after '=${operator}='`, property === SEARCH);
    return { type: 'comparison', operator: operator as RqlComparisonOperator, property, propertyPosition: start, value, position: start };
  }

  // ------------------------------------------------------------ ordering

  private ordering(): RqlOrderingTerm[] {
    const start = this.pos;
    this.pos += 'ordering('.length;
    const terms: RqlOrderingTerm[] = [];
    if (this.peek() === ')') {
      this.pos++;
      return terms;
    }
    for (;;) {
      const position = this.pos;
      const sign = this.peek();
      if (sign === '+' || sign === '-') this.pos++;
      const field = this.requiredProperty();
      terms.push({ field, descending: sign === '-', position });
      if (this.peek() !== ',') break;
      this.pos++;
    }
    if (this.peek() !== ')') throw this.expected("',' or ')'", 'ordering(', start);
    this.pos++;
    return terms;
  }

  // ------------------------------------------------------------ tokens

  private property(): string {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.src.length && PROPERTY_CHAR.test(this.src[this.pos]!)) this.pos++;
    return this.src.slice(start, this.pos);
  }

  private requiredProperty(): string {
    const char = this.peek();
    if (char !== undefined && LETTER.test(char)) return this.property();
    if (char !== undefined && /[0-9]/.test(char)) {
      throw new RqlError(this.pos, 'Expected a property name', 'A property name must start with a letter');
    }
    if (char === "'" || char === '"') throw new RqlError(this.pos, 'Expected a property name', 'Property names are never quoted');
    throw new RqlError(
      this.pos,
      'Expected a property name',
      char === undefined ? 'The expression ends too early' : `Found ${describe(char)}`,
    );
  }

  /** `allowEmpty`: nothing before the next separator is the empty string (`search=`, as django-rql reads it). */
  private value(context: string, allowEmpty = false): RqlValueNode {
    const start = this.pos;
    const char = this.peek();
    if (char === "'" || char === '"') {
      const end = this.src.indexOf(char, start + 1);
      if (end < 0) throw new RqlError(start, 'Unterminated quoted value', `Close it with ${char}; quoted values have no escapes`);
      this.pos = end + 1;
      return { kind: 'string', value: this.src.slice(start + 1, end), quoted: true, position: start };
    }
    if (char === ' ') throw new RqlError(start, 'A value cannot start with a space', 'Quote the value to keep leading spaces');
    let text = '';
    while (this.pos < this.src.length) {
      const next = String.fromCodePoint(this.src.codePointAt(this.pos)!);
      if (!VALUE_CHAR.test(next)) break;
      text += next;
      this.pos += next.length;
    }
    if (text === '' && allowEmpty && (char === undefined || ',)&|;'.includes(char))) {
      return { kind: 'string', value: '', quoted: false, position: start };
    }
    if (text === '') {
      const hint =
        char === undefined
          ? 'The expression ends too early'
          : ',)&|;='.includes(char)
            ? 'Write empty() for the empty string'
            : `${describe(char)} cannot appear in an unquoted value; quote the value`;
      throw new RqlError(start, `Expected a value ${context}`, hint);
    }
    if ((text === 'null' || text === 'empty') && this.src.startsWith('()', this.pos)) {
      this.pos += 2;
      return { kind: text, position: start };
    }
    return { kind: 'string', value: text, quoted: false, position: start };
  }

  // ------------------------------------------------------------ helpers

  private countTerm(position: number): void {
    if (++this.terms > RQL_MAX_TERMS) {
      throw new RqlError(
        position,
        `Expression has more than ${RQL_MAX_TERMS} terms`,
        'Each comparison and each value of an in() or out() list counts as one',
      );
    }
  }

  private peek(): string | undefined {
    return this.src[this.pos];
  }

  private expectChar(char: string, context: string): void {
    if (this.peek() === char) {
      this.pos++;
      return;
    }
    const found = this.peek();
    throw new RqlError(
      this.pos,
      `Expected '${char}' ${context}`,
      found === undefined ? 'The expression ends too early' : found === ' ' ? SPACE_HINT : undefined,
    );
  }

  private closeCall(operator: string, shape: string): void {
    const found = this.peek();
    if (found === ')') {
      this.pos++;
      return;
    }
    let hint: string | undefined;
    if (found === undefined) hint = 'The expression ends too early';
    else if (found === '(') hint = 'Only null() and empty() can be written as function values';
    else if (found === ',') hint = `${shape}; quote values that contain commas`;
    else hint = `${describe(found)} cannot appear in an unquoted value; quote the value`;
    throw new RqlError(this.pos, `Expected ')' to close ${operator}(`, hint);
  }

  private expected(what: string, opener: string, openedAt: number): RqlError {
    const found = this.peek();
    const open = `the ${opener} at position ${openedAt} is still open`;
    const hint = found === undefined ? `The expression ends but ${open}` : found === ' ' ? SPACE_HINT : `Found ${describe(found)}; ${open}`;
    return new RqlError(this.pos, `Expected ${what}`, hint);
  }

  private expectedExpression(char: string | undefined): RqlError {
    if (char === undefined) return new RqlError(this.pos, 'Expected an expression', 'The expression ends too early');
    if (/[0-9]/.test(char)) return new RqlError(this.pos, 'Expected an expression', 'A property name must start with a letter');
    if (char === "'" || char === '"') {
      return new RqlError(
        this.pos,
        'Expected an expression',
        "A quoted value cannot stand alone; compare a property with it, as in prop='value'",
      );
    }
    if (char === ' ') return new RqlError(this.pos, 'Expected an expression', SPACE_HINT);
    if (char === ',' || char === '&' || char === '|' || char === ';' || char === ')') {
      return new RqlError(this.pos, 'Expected an expression', `Found ${describe(char)}; remove the extra separator`);
    }
    return new RqlError(this.pos, 'Expected an expression', `Found ${describe(char)}`);
  }

  private unexpectedAfterTerm(): RqlError {
    const char = this.src[this.pos]!;
    if (char === '|' || char === ';') {
      return new RqlError(this.pos, `'${char}' is only allowed inside parentheses`, `Write (a${char}b)`);
    }
    if (char === ')') return new RqlError(this.pos, "Unmatched ')'");
    if (char === ' ') return new RqlError(this.pos, 'Unexpected space', SPACE_HINT);
    return new RqlError(this.pos, `Unexpected ${describe(char)}`, "Separate expressions with ',' or '&'");
  }
}

/** Parses an RQL expression. Throws RqlError, whose position points at the offending character. */
export function parseRql(expression: string): RqlParsed {
  return new Parser(expression).parse();
}
