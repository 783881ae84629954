/**
 * prom-client's default process and Node.js metrics, held to Prometheus' naming rules: a gauge's
 * name does not end in `_total`, which is a counter's suffix (promtool's lint flags it). prom-client
 * reports the live handles, requests and resources twice, by type (`lectern_nodejs_active_handles`)
 * and as a `…_total` gauge of their sum; the sums are dropped, `sum(…)` of the first gives them.
 * And an unknown value is written `NaN`, as the text format spells it, where prom-client writes
 * `Nan` (the event-loop delay's mean before its first sample).
 */
import { collectDefaultMetrics, type Registry } from 'prom-client';

const SUMS_NAMED_AS_COUNTERS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

export function registerProcessMetrics(registry: Registry, prefix: string): void {
  collectDefaultMetrics({ register: registry, prefix });
  for (const name of SUMS_NAMED_AS_COUNTERS) registry.removeSingleMetric(prefix + name);
}

/** The exposition with prom-client's `Nan` spelled `NaN`: only a sample's value can be `Nan` at a line's end. */
export const spellNaN = (exposition: string): string => exposition.replace(/^([a-zA-Z_:][\w:]*(?:\{.*\})?) Nan$/gm, '$1 NaN');
