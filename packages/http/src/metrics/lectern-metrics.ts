/**
 * The figures Lectern reports beyond requests: bulk jobs and imports by kind and status, webhook
 * deliveries by outcome, the webhook backlog and its oldest delivery's age, and the database's
 * connection and transaction figures. Database counts are read when scraped, never kept up to date
 * per change: a scrape costs three small queries (jobs and imports grouped, pending deliveries
 * through their own index), a request nothing.
 */
import { deliveryOutcomes, importStatuses, jobStatuses, type Lectern } from '@lectern/core';
import type { Registry } from 'prom-client';
import { customMetric, type MetricValue } from './custom-metric.ts';

export function registerLecternMetrics(registry: Registry, lectern: Lectern): void {
  registry.registerMetric(customMetric('lectern_jobs', 'Bulk jobs stored, by kind and status.', 'gauge', () => jobSeries(lectern)));
  registry.registerMetric(
    customMetric('lectern_imports', 'CSV imports stored, by kind and status.', 'gauge', async () =>
      everyStatus(await lectern.storage.imports.countByKindAndStatus(), importStatuses),
    ),
  );

  registry.registerMetric(
    customMetric(
      'lectern_webhook_deliveries_total',
      'Webhook delivery attempts this server committed, by what became of the delivery (succeeded, retrying, failed for good, cancelled).',
      'counter',
      () => deliveryOutcomes.map((outcome) => ({ labels: { outcome }, value: lectern.webhookDeliveryOutcomes[outcome] })),
    ),
  );

  // both figures come from one query, asked once per scrape
  let backlog: Promise<{ pending: number; oldestCreated: string | null }> | undefined;
  const readBacklog = () =>
    (backlog ??= lectern.storage.webhookDeliveries.backlog().finally(() => setImmediate(() => (backlog = undefined))));
  registry.registerMetric(
    customMetric('lectern_webhook_backlog', 'Webhook deliveries pending (due now or waiting for a retry).', 'gauge', async () => [
      { labels: {}, value: (await readBacklog()).pending },
    ]),
  );
  registry.registerMetric(
    customMetric(
      'lectern_webhook_oldest_pending_age_seconds',
      'Age of the oldest pending webhook delivery (0 when none is pending).',
      'gauge',
      async () => {
        const { oldestCreated } = await readBacklog();
        const age = oldestCreated === null ? 0 : Math.max(0, (lectern.clock.now().getTime() - Date.parse(oldestCreated)) / 1000);
        return [{ labels: {}, value: age }];
      },
    ),
  );

  registerDatabaseMetrics(registry, lectern);
}

/**
 * Every status of each kind that has rows, zeros included: an alert on failures compares a series
 * with its earlier self, which a series that appears only with the first failure lacks.
 */
function everyStatus(counts: Array<{ kind: string; status: string; count: number }>, statuses: readonly string[]): MetricValue[] {
  const kinds = [...new Set(counts.map((row) => row.kind))];
  return kinds.flatMap((kind) =>
    statuses.map((status) => ({
      labels: { kind, status },
      value: counts.find((row) => row.kind === kind && row.status === status)?.count ?? 0,
    })),
  );
}

const jobSeries = async (lectern: Lectern) => everyStatus(await lectern.storage.jobs.countByKindAndStatus(), jobStatuses);

function registerDatabaseMetrics(registry: Registry, lectern: Lectern): void {
  const stats = lectern.storage.databaseStats?.bind(lectern.storage);
  if (!stats) return;
  const one = (value: number): MetricValue[] => [{ labels: {}, value }];
  registry.registerMetric(
    customMetric('lectern_db_transactions_total', 'Database transactions begun.', 'counter', () => one(stats().transactions)),
  );
  registry.registerMetric(
    customMetric(
      'lectern_db_transactions_waiting',
      'Transactions waiting to begin (for the connection, a pooled connection or the write lock).',
      'gauge',
      () => one(stats().transactionsWaiting),
    ),
  );
  registry.registerMetric(
    customMetric('lectern_db_transaction_wait_seconds_total', 'Time transactions spent waiting to begin, summed.', 'counter', () =>
      one(stats().transactionWaitSeconds),
    ),
  );
  const longest = lectern.storage.takeLongestTransactionSeconds?.bind(lectern.storage);
  if (longest)
    registry.registerMetric(
      customMetric(
        'lectern_db_longest_transaction_seconds',
        "The longest database transaction that ended since the previous scrape, from its begin to its end, on any of this server's threads (an import chunk included).",
        'gauge',
        () => one(longest()),
      ),
    );
  if (!stats().pool) return;
  const pool = (figure: 'max' | 'total' | 'idle' | 'waiting') => () => one(stats().pool?.[figure] ?? 0);
  registry.registerMetric(customMetric('lectern_db_pool_max', 'Connections the pool may open.', 'gauge', pool('max')));
  registry.registerMetric(customMetric('lectern_db_pool_connections', 'Connections the pool holds open.', 'gauge', pool('total')));
  registry.registerMetric(customMetric('lectern_db_pool_idle', 'Open connections not in use.', 'gauge', pool('idle')));
  registry.registerMetric(customMetric('lectern_db_pool_waiting', 'Queries waiting for a pooled connection.', 'gauge', pool('waiting')));
}
