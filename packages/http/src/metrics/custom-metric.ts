/**
 * A metric whose values are read from elsewhere when the registry is scraped: prom-client's
 * registry formats any object with a name, help, type and `get()`. Used where Lectern keeps the
 * figures itself (request cells, delivery outcomes) or reads them from the database.
 */
import type { Metric } from 'prom-client';

export interface MetricValue {
  /** a histogram's `_bucket`, `_sum` and `_count` series; the metric's name otherwise */
  metricName?: string;
  labels: Record<string, string>;
  value: number;
}

type Kind = 'counter' | 'gauge' | 'histogram' | 'summary';

export function customMetric(name: string, help: string, type: Kind, values: () => MetricValue[] | Promise<MetricValue[]>): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: await values() }),
  };
  // the declared MetricType is a numeric enum; the registry reads the text form at run time
  return metric as unknown as Metric;
}
