/**
 * `like` patterns, compiled once into literal segments so that the in-memory evaluator and each SQL
 * compiler only translate a structure and never re-interpret the user's text.
 *
 * Syntax (rql.md): `*` is any run of characters, `\*` a literal star, `\\` one literal backslash (as
 * django-rql reads it, so `a\\*` is "starts with a\"), `**` an error. A backslash before anything
 * else is an ordinary character, so `a\b` is the three characters a, \, b.
 */
import type { RqlPattern } from './rql-ast.ts';
import { foldCase } from '../../shared/fold-case.ts';
import { RqlError } from './rql-error.ts';

/** The value token a pattern came from; positions of errors are computed from it. */
export interface RqlPatternSource {
  value: string;
  quoted: boolean;
  position: number;
}

export function compileRqlPattern(source: RqlPatternSource): RqlPattern {
  const { value } = source;
  const contentStart = source.position + (source.quoted ? 1 : 0);
  const segments: string[] = [];
  let current = '';
  let afterWildcard = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (char === '\\' && (value[i + 1] === '*' || value[i + 1] === '\\')) {
      current += value[i + 1];
      i++;
      afterWildcard = false;
    } else if (char === '*') {
      if (afterWildcard) {
        throw new RqlError(
          contentStart + i - 1,
          "'**' is not a valid pattern",
          "Use a single '*' for any run of characters, or '\\*' for a literal star",
        );
      }
      segments.push(current);
      current = '';
      afterWildcard = true;
    } else {
      current += char;
      afterWildcard = false;
    }
  }
  segments.push(current);
  return { segments };
}

/** The pattern `*p*` for a pattern without wildcards, `p` unchanged otherwise (how `search` reads its text). */
export function substringUnlessWildcard(pattern: RqlPattern): RqlPattern {
  return pattern.segments.length === 1 ? { segments: ['', pattern.segments[0]!, ''] } : pattern;
}

/** A pattern as `ilike` compares it: each literal segment folded (SQL binds the same segments). */
export function foldPattern(pattern: RqlPattern): RqlPattern {
  return { segments: pattern.segments.map(foldCase) };
}

/**
 * What SQLite's LIKE and GLOB read of a text: they stop at the first U+0000, and their UTF-8
 * reader turns every code point that is not a character for interchange (a lone surrogate, U+FFFE,
 * U+FFFF) into U+FFFD, so within a pattern match those four are one character. Equality and order
 * (`=`, `<`) compare the stored bytes and see none of this.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NOT_INTERCHANGEABLE = new RegExp(`${LONE_SURROGATE.source}|[\\uFFFE\\uFFFF]`, 'g');

function asPatternReads(text: string): string {
  const nul = text.indexOf('\0');
  return (nul < 0 ? text : text.slice(0, nul)).replace(NOT_INTERCHANGEABLE, '\uFFFD');
}

/**
 * The text SQL's fold function is handed for a stored text: a lone surrogate is stored as its three
 * WTF-8 bytes, which are not UTF-8, and each of them reaches the function as U+FFFD.
 */
function asFoldReads(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD\uFFFD\uFFFD');
}

/**
 * Whether `text` matches. Greedy leftmost placement of the middle segments is exact for patterns whose
 * only wildcard is `*`: if any placement works, the leftmost one leaves the most room for the rest.
 */
export function matchesRqlPattern(pattern: RqlPattern, text: string, caseInsensitive: boolean): boolean {
  const folded = caseInsensitive ? foldPattern(pattern).segments : pattern.segments;
  const subjectText = caseInsensitive ? foldCase(asFoldReads(text)) : text;
  // A pattern without wildcards is an equality; SQL compares such patterns with `=`.
  if (folded.length === 1) return subjectText === folded[0];
  const subject = asPatternReads(subjectText);
  const segments = folded.map(asPatternReads);
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  if (subject.length < first.length + last.length) return false;
  if (!subject.startsWith(first) || !subject.endsWith(last)) return false;
  const end = subject.length - last.length;
  let from = first.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    const at = subject.indexOf(segment, from);
    if (at < 0 || at + segment.length > end) return false;
    from = at + segment.length;
  }
  return true;
}
