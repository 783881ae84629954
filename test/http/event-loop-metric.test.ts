/**
 * `lectern_event_loop_delay_seconds` on /metrics: how late the request thread ran its timers, as a
 * Prometheus summary (median, 99th percentile and longest since the previous scrape, with a running
 * sum and count), sampled from the server's start rather than from the first scrape.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { useServer } from '../helpers/server.ts';

interface Family {
  name: string;
  type: string;
  metrics: Array<{ quantiles?: Record<string, string>; count?: string; sum?: string }>;
}

// the parser ships no type declarations
const parsePrometheus = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Family[];

describe('the event-loop delay metric', () => {
  const server = useServer();

  const delay = async (): Promise<Family> => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    assert.equal(response.status, 200);
    const family = parsePrometheus(await response.text()).find((entry) => entry.name === 'lectern_event_loop_delay_seconds');
    assert.ok(family, 'lectern_event_loop_delay_seconds is exposed');
    return family;
  };

  it('is a summary with the median, the 99th percentile and the longest delay, sampled from the start', async () => {
    // the monitor takes a sample every 10 ms: a server that answered its first request sooner after
    // starting would have none yet (it happened on a fast machine), so a few intervals pass first
    await new Promise((resolve) => setTimeout(resolve, 50));
    const first = await delay();
    assert.equal(first.type, 'SUMMARY');
    const [sample] = first.metrics;
    assert.deepEqual(Object.keys(sample!.quantiles ?? {}).sort(), ['0.5', '0.99', '1']);
    // the server had been sampling before this first scrape
    assert.ok(Number(sample!.count) > 0, JSON.stringify(sample));
    const q = (name: string) => Number(sample!.quantiles![name]);
    assert.ok(q('0.5') >= 0 && q('0.5') <= q('0.99') && q('0.99') <= q('1'), JSON.stringify(sample));

    await new Promise((resolve) => setTimeout(resolve, 100));
    const [later] = (await delay()).metrics;
    assert.ok(Number(later!.count) > Number(sample!.count), 'the count runs on across scrapes');
    assert.ok(Number(later!.sum) >= Number(sample!.sum), 'so does the sum');
  });
});
