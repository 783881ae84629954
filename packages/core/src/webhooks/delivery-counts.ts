/**
 * What became of the deliveries this process attempted or ended, counted once their transaction
 * committed. Plain numbers that only grow: the metrics endpoint reads them as counters, and each
 * server counts its own.
 */
export const deliveryOutcomes = ['succeeded', 'retrying', 'failed', 'cancelled'] as const;
export type DeliveryOutcome = (typeof deliveryOutcomes)[number];
export type DeliveryOutcomeCounts = Record<DeliveryOutcome, number>;

export const emptyOutcomeCounts = (): DeliveryOutcomeCounts => ({ succeeded: 0, retrying: 0, failed: 0, cancelled: 0 });
