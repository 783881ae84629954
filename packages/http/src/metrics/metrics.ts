/**
 * `GET /metrics`: one registry per app, so several apps in one process (tests, an embedder) never
 * share series. Requests are counted from the start; everything else, the process's own metrics
 * included (prom-client's defaults, which start an event-loop monitor and a GC observer), is set up
 * at the first scrape, so a server nobody scrapes pays nothing for it.
 */
import type { Lectern } from '@lectern/core';
import { Registry } from 'prom-client';
import { EventLoopDelay } from './event-loop-metrics.ts';
import { registerLecternMetrics } from './lectern-metrics.ts';
import { registerProcessMetrics, spellNaN } from './process-metrics.ts';
import { RequestMetrics } from './request-metrics.ts';

export class LecternMetrics {
  readonly requests = new RequestMetrics();
  /** sampled from the start: a stall before the first scrape still counts */
  private readonly eventLoop = new EventLoopDelay();
  private registry: Registry | undefined;

  constructor(private readonly lectern: Lectern) {}

  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;

  /** The text exposition of every metric. */
  async render(): Promise<string> {
    return spellNaN(await this.registryOnce().metrics());
  }

  private registryOnce(): Registry {
    if (this.registry) return this.registry;
    const registry = new Registry();
    registerProcessMetrics(registry, 'lectern_');
    this.requests.register(registry);
    this.eventLoop.register(registry);
    registerLecternMetrics(registry, this.lectern);
    return (this.registry = registry);
  }
}
