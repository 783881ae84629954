/**
 * What a person pasted or typed into a picker: public ids (UUIDs) and email addresses are taken
 * as they are and looked up; anything else is a search. A pasted column or list of several is
 * split on newlines, commas, semicolons and spaces.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// deliberately loose: the server decides whether an address is valid, the picker only recognises one
const EMAIL = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;

export type PastedToken = { kind: 'id'; value: string } | { kind: 'email'; value: string };

export interface Pasted {
  tokens: PastedToken[];
  /** the words that are neither, joined back: a search */
  rest: string;
}

/** `"Ann <ann@x.org>"` → `ann@x.org`: mail clients copy addresses with the name around them. */
function bare(word: string): string {
  return word.replace(/^[<("'[]+|[>)"'\]]+$/g, '');
}

export function parsePasted(text: string): Pasted {
  const tokens: PastedToken[] = [];
  const rest: string[] = [];
  const seen = new Set<string>();
  for (const word of text.split(/[\s,;]+/).filter(Boolean)) {
    const candidate = bare(word);
    const kind = UUID.test(candidate) ? 'id' : EMAIL.test(candidate) ? 'email' : undefined;
    if (!kind) {
      rest.push(word);
      continue;
    }
    const value = kind === 'id' ? candidate.toLowerCase() : candidate;
    if (seen.has(`${kind}:${value.toLowerCase()}`)) continue;
    seen.add(`${kind}:${value.toLowerCase()}`);
    tokens.push({ kind, value });
  }
  return { tokens, rest: rest.join(' ') };
}

/** A numeric id (locations are numbered, not UUIDs), when the text is one. */
export function numericId(text: string): number | undefined {
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}
