/**
 * How far the server's JavaScript heap may grow past what its last full collection kept.
 *
 * V8 lets the old generation grow to up to four times its live size before collecting it again.
 * A server that streams a large export or import allocates fast and, whatever it keeps, promotes
 * some of each batch it is working on; the heap then fills to that limit with garbage. With
 * Lectern's live heap of about 25 MB that is 100 MB of resident memory for nothing (measured on an
 * export of a million assignments from PostgreSQL). Each full collection stops the server, so a
 * tighter limit costs speed: at twice the live size the export grew 56 MB and imports into
 * PostgreSQL ran about 8 % slower; two and a half times is the middle (docs/operations.md).
 */
import v8 from 'node:v8';

/** The growth Lectern asks for: 150 % past the live size, a factor of 2.5. */
export const HEAP_GROWING_PERCENT = 150;

const FLAG = '--heap-growing-percent';

/**
 * The V8 flag to set, unless the operator already chose a growth in the node options the process
 * was started with (`NODE_OPTIONS` or node's own arguments), which then stands.
 */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | undefined {
  // V8 takes its flags' names with `_` or `-` alike
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)]
    .map((arg) => arg.replace(/_/g, '-'))
    .some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`));
  return given ? undefined : `${FLAG}=${HEAP_GROWING_PERCENT}`;
}

/** Applies heapGrowthFlag to this process: V8 reads the setting at each full collection. */
export function limitHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) v8.setFlagsFromString(flag);
}
