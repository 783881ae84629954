/**
 * What became of the deliveries this process attempted or ended, counted once their transaction
 * committed. Plain numbers that only grow: the metrics endpoint reads them as counters, and each
 * server counts its own.
 */
export const deliveryOutcomes = ['succeeded', 'retrying', 'failed', 'cancelled'] as const;
export type DeliveryOutcome = (typeof deliveryOutcomes)[number];
export type DeliveryOutcomeCounts = Record<DeliveryOutcome, number>;

export const emptyOutcomeCounts = (): DeliveryOutcomeCounts => ({ succeeded: 0, retrying: 0, failed: 0, cancelled: 0 });

/**
 * Counts kept in shared memory (`new SharedArrayBuffer(8 * deliveryOutcomes.length)`): the worker
 * thread that delivers adds to them, and the request thread's metrics read the same cells. One
 * thread writes, so a plain read-then-write is enough; a float holds any count a server reaches.
 */
export function sharedOutcomeCounts(buffer: SharedArrayBuffer): DeliveryOutcomeCounts {
  const cells = new Float64Array(buffer, 0, deliveryOutcomes.length);
  const counts = {} as DeliveryOutcomeCounts;
  deliveryOutcomes.forEach((outcome, index) =>
    Object.defineProperty(counts, outcome, {
      enumerable: true,
      get: () => cells[index]!,
      set: (value: number) => {
        cells[index] = value;
      },
    }),
  );
  return counts;
}
