import type { Probe } from '../routes/probes.ts';
import type { Step } from './pipeline.ts';

/**
 * The step that answers the health and readiness probes before authentication and rate limits: an
 * orchestrator's checks must not use up a window, nor wait behind one.
 */
export const probes =
  (match: (method: string, target: string) => Probe | undefined): Step =>
  async (exchange, next) => {
    const probe = match(exchange.request.method, exchange.request.url);
    if (!probe) return next();
    exchange.route = probe.route;
    return probe.answer();
  };
