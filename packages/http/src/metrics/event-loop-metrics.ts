/**
 * How long the thread that serves requests was kept from them: the event loop's delay, sampled
 * by Node's own monitor (perf_hooks.monitorEventLoopDelay) from the moment the app is built, not
 * from the first scrape, so a stall before anyone scraped still shows. Exposed as a summary: the
 * median, the 99th percentile and the longest delay since the previous scrape, with a running sum
 * and count. Anything synchronous on this thread (a long SQLite statement or transaction, a CSV
 * page built in one go) shows here as a long delay.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import { customMetric, type MetricValue } from './custom-metric.ts';

/** The monitor's sampling interval: a stall shorter than this may go unseen. */
const RESOLUTION_MS = 10;
const NS_PER_SECOND = 1e9;

export class EventLoopDelay {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private sumSeconds = 0;
  private count = 0;

  constructor() {
    this.histogram.enable();
  }

  /** The summary's series, over the delays since the previous call; the window starts again. */
  private read(): MetricValue[] {
    const h = this.histogram;
    const samples = h.count;
    // the monitor's figures include its own interval: what a timer waited beyond it is the delay
    const delay = (ns: number) => (samples === 0 ? 0 : Math.max(0, ns / NS_PER_SECOND - RESOLUTION_MS / 1000));
    const quantiles: MetricValue[] = [
      { labels: { quantile: '0.5' }, value: delay(h.percentile(50)) },
      { labels: { quantile: '0.99' }, value: delay(h.percentile(99)) },
      { labels: { quantile: '1' }, value: delay(h.max) },
    ];
    this.sumSeconds += samples === 0 ? 0 : delay(h.mean) * samples;
    this.count += samples;
    h.reset();
    return [
      ...quantiles,
      { metricName: 'lectern_event_loop_delay_seconds_sum', labels: {}, value: this.sumSeconds },
      { metricName: 'lectern_event_loop_delay_seconds_count', labels: {}, value: this.count },
    ];
  }

  register(registry: Registry): void {
    registry.registerMetric(
      customMetric(
        'lectern_event_loop_delay_seconds',
        'How late the request thread ran its timers, since the previous scrape (quantile 1 is the longest stall).',
        'summary',
        () => this.read(),
      ),
    );
  }
}
