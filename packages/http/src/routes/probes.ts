import { LecternError, type Lectern } from '@lectern/core';
import { z } from 'zod';
import type { OperationSpec } from '../operation-spec.ts';
import { ok, type Reply } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export interface Probe {
  route: string;
  answer(): Promise<Reply>;
}

// as the route table answers every path: HEAD wherever GET is, OPTIONS everywhere
const PROBE_METHODS = 'GET, HEAD, OPTIONS';

/**
 * `GET /healthz` (the process serves) and `GET /readyz` (and the database can take requests).
 * Orchestrators and load balancers poll them anonymously and often, so the app answers them before
 * authentication and rate limiting, outside the API's route table.
 */
export function probeRoutes(lectern: Lectern): (method: string, target: string) => Probe | undefined {
  const probes: Record<string, () => Promise<Reply>> = {
    '/healthz': async () => ok({ status: 'ok' }),
    '/readyz': async () => {
      await lectern.assertReady();
      return ok({ status: 'ok' });
    },
  };
  return (method, target) => {
    // a plain string match: anything unusual about the target is left to the regular pipeline
    if (!target.startsWith('/healthz') && !target.startsWith('/readyz')) return undefined;
    const path = target.split('?', 1)[0]!.replace(/(.)\/$/, '$1');
    const answer = Object.hasOwn(probes, path) ? probes[path] : undefined;
    if (!answer) return undefined;
    if (method === 'OPTIONS') return { route: path, answer: async () => ({ status: 204, headers: { Allow: PROBE_METHODS } }) };
    if (method !== 'GET' && method !== 'HEAD') {
      return {
        route: path,
        answer: async () => {
          throw new LecternError('method_not_allowed', `Method ${method} is not allowed here. Allowed: ${PROBE_METHODS}.`, {
            headers: { Allow: PROBE_METHODS },
          });
        },
      };
    }
    return { route: path, answer };
  };
}

const probeSpec = (summary: string): OperationSpec => ({
  summary,
  tag: 'Meta',
  scope: null,
  rateLimited: false,
  response: { status: 200, schema: z.object({ status: z.literal('ok') }) },
});

/** The probes, answered above, described in the API's document with the routes. */
export function describeProbes(routes: RouteTable): void {
  routes
    .describeOnly('GET', '/healthz', probeSpec('The process serves'))
    .describeOnly('GET', '/readyz', probeSpec('The process serves and the database takes requests (503 otherwise)'));
}
