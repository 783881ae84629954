/**
 * Request counts and latencies. The app records every response here, so the hot path is a lookup
 * in three small maps and a few additions: no label object, hash or string is built per request
 * (prom-client's own children build both per call). The figures become Prometheus series only when
 * scraped (`register`).
 *
 * The series are chosen for a scrape that stays small however many routes have been seen: a
 * latency histogram per route and status (fourteen series each) made a server that had seen every
 * route write over a megabyte. So:
 * - `lectern_http_requests_total{method,route,status}`: a counter, one series per combination seen;
 * - `lectern_http_route_duration_seconds{method,route}`: per route, the time spent and the count
 *   (a summary without quantiles: `rate(_sum) / rate(_count)` is its mean latency);
 * - `lectern_http_request_duration_seconds{method}`: the latency histogram, by method only, for
 *   percentiles and latency objectives across the API.
 */
import type { Registry } from 'prom-client';
import { customMetric, type MetricValue } from './custom-metric.ts';

/** Upper bounds in seconds: Lectern answers most reads within a few milliseconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Methods outside this list (the parser accepts dozens) share one label value. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route label of a request no registered route matched: never its raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

interface Cell {
  method: string;
  route: string;
  status: string;
  count: number;
  sum: number;
}

interface MethodLatency {
  count: number;
  sum: number;
  /** per bucket, not cumulative; the last counts what exceeds every bound */
  buckets: number[];
}

export class RequestMetrics {
  /** method → route → status → cell; routes are the table's own pattern strings */
  private readonly cells = new Map<string, Map<string, Map<number, Cell>>>();
  private readonly latencies = new Map<string, MethodLatency>();

  /**
   * Counts one response. `route` is the pattern that matched (`/api/v2/users/:id`), or null when
   * none did; `method` is null for a request refused before its method was read.
   */
  observe(method: string | null, route: string | null, status: number, seconds: number): void {
    const methodLabel = method !== null && METHODS.has(method) ? method : 'other';
    const routeLabel = route ?? UNMATCHED_ROUTE;
    let byRoute = this.cells.get(methodLabel);
    if (!byRoute) this.cells.set(methodLabel, (byRoute = new Map()));
    let byStatus = byRoute.get(routeLabel);
    if (!byStatus) byRoute.set(routeLabel, (byStatus = new Map()));
    let cell = byStatus.get(status);
    if (!cell) {
      cell = { method: methodLabel, route: routeLabel, status: String(status), count: 0, sum: 0 };
      byStatus.set(status, cell);
    }
    cell.count++;
    cell.sum += seconds;
    let latency = this.latencies.get(methodLabel);
    if (!latency)
      this.latencies.set(methodLabel, (latency = { count: 0, sum: 0, buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0) }));
    latency.count++;
    latency.sum += seconds;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    latency.buckets[bucket]!++;
  }

  private *eachCell(): Generator<Cell> {
    for (const byRoute of this.cells.values()) for (const byStatus of byRoute.values()) yield* byStatus.values();
  }

  /** The time and count of each method and route, every status together. */
  private routeDurations(): MetricValue[] {
    const values: MetricValue[] = [];
    for (const [method, byRoute] of this.cells) {
      for (const [route, byStatus] of byRoute) {
        let count = 0;
        let sum = 0;
        for (const cell of byStatus.values()) {
          count += cell.count;
          sum += cell.sum;
        }
        const labels = { method, route };
        values.push({ metricName: 'lectern_http_route_duration_seconds_sum', labels, value: sum });
        values.push({ metricName: 'lectern_http_route_duration_seconds_count', labels, value: count });
      }
    }
    return values;
  }

  /** Adds the request metrics (above) to `registry`. */
  register(registry: Registry): void {
    registry.registerMetric(
      customMetric('lectern_http_requests_total', 'HTTP responses sent, by method, route template and status.', 'counter', () =>
        [...this.eachCell()].map((cell) => ({
          labels: { method: cell.method, route: cell.route, status: cell.status },
          value: cell.count,
        })),
      ),
    );
    registry.registerMetric(
      customMetric(
        'lectern_http_route_duration_seconds',
        'Time from a request reaching the application to its response, summed, and the number of responses, by method and route template.',
        'summary',
        () => this.routeDurations(),
      ),
    );
    registry.registerMetric(
      customMetric(
        'lectern_http_request_duration_seconds',
        'Time from a request reaching the application to its response, by method.',
        'histogram',
        () => [...this.latencies].flatMap(([method, latency]) => histogramValues(method, latency)),
      ),
    );
  }
}

function histogramValues(method: string, latency: MethodLatency): MetricValue[] {
  const labels = { method };
  const values: MetricValue[] = [];
  let cumulative = 0;
  LATENCY_BUCKETS.forEach((bound, i) => {
    cumulative += latency.buckets[i]!;
    values.push({ metricName: 'lectern_http_request_duration_seconds_bucket', labels: { method, le: String(bound) }, value: cumulative });
  });
  values.push({ metricName: 'lectern_http_request_duration_seconds_bucket', labels: { method, le: '+Inf' }, value: latency.count });
  values.push({ metricName: 'lectern_http_request_duration_seconds_sum', labels, value: latency.sum });
  values.push({ metricName: 'lectern_http_request_duration_seconds_count', labels, value: latency.count });
  return values;
}
