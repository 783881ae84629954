/**
 * Docs sections rendered from code sit between two HTML-comment markers; these helpers replace
 * such a section and give each generator the same command line (rewrite, or `--check`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export interface GeneratedSection {
  /** absolute path of the document */
  docPath: string;
  start: string;
  end: string;
  /** the script that renders it, for the "stale" message */
  script: string;
  render(): string;
}

/** `doc` with the section's content replaced by a fresh rendering. */
export function withSection(section: GeneratedSection, doc: string, content: string = section.render()): string {
  const start = doc.indexOf(section.start);
  const end = doc.indexOf(section.end);
  if (start < 0 || end < start) throw new Error(`${section.docPath} lacks the markers ${section.start} … ${section.end}`);
  return `${doc.slice(0, start + section.start.length)}\n\n${content}\n\n${doc.slice(end)}`;
}

/** Rewrites the document, or with `--check` exits 1 when it is stale. */
export function runGenerator(section: GeneratedSection, argv: string[] = process.argv): void {
  const doc = readFileSync(section.docPath, 'utf8');
  const next = withSection(section, doc);
  if (argv.includes('--check')) {
    if (next !== doc) {
      console.error(`${relative(process.cwd(), section.docPath)} is stale: run node --conditions=source --import tsx ${section.script}`);
      process.exit(1);
    }
  } else if (next !== doc) writeFileSync(section.docPath, next);
}
