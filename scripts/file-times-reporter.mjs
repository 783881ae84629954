// A node:test reporter that writes one line per finished test file: its wall time in milliseconds
// (from node:test's own file-level event, so the file's process start-up counts), whether it
// passed, and its path, separated by tabs. scripts/run-tests.mjs gives it a file as destination and
// prints the slowest files, and the failed ones by name and database, at the end.
import { resolve } from 'node:path';

export default async function* fileTimes(source) {
  for await (const event of source) {
    // a file's own test: nesting 0 and named by its path (its tests are named by their titles);
    // Node 20 names it by the absolute path, Node 24 by the path as given on the command line
    if (event.type !== 'test:complete' || event.data.nesting !== 0 || resolve(event.data.name) !== event.data.file) continue;
    yield `${Math.round(event.data.details.duration_ms)}\t${event.data.details.passed ? 'passed' : 'failed'}\t${event.data.file}\n`;
  }
}
