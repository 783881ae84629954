/**
 * Every figure a benchmark measures goes through `report`: printed as a line, and, when
 * LECTERN_BENCH_RESULTS names a file, appended to it as JSON, so that `npm run bench` can print
 * one table of the targets (figure, target, measured, pass or fail) and, with `--db postgres://…`,
 * set the SQLite and PostgreSQL runs side by side.
 */
import { appendFileSync } from 'node:fs';

/**
 * What a figure is held to on SQLite (no targets on PostgreSQL yet): below or at least a value, or
 * only reported in the targets table.
 */
export type Target = { below: number } | { atLeast: number } | { reported: true };

export function report(figure: string, value: number, unit: string, detail = '', target?: Target): void {
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(2);
  console.log(`${figure.padEnd(56)} ${shown.padStart(9)} ${unit}${detail ? `   ${detail}` : ''}`);
  const file = process.env.LECTERN_BENCH_RESULTS;
  if (file) appendFileSync(file, `${JSON.stringify({ figure, value, unit, ...(target ? { target } : {}) })}\n`);
}
