/**
 * The send stage: one signed POST with undici, bounded in time, never following a redirect, and
 * (unless private targets are allowed) never connecting to a non-public address, whatever DNS says
 * at the moment of connecting.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Agent, request as undiciRequest } from 'undici';
import { abortWithin } from '../shared/abort-within.ts';
import { RESPONSE_BODY_LIMIT_BYTES } from './webhook-delivery.ts';
import type { SendResult } from './delivery-outcome.ts';
import { nonPublicAddressKind } from './webhook-target.ts';

export interface SignedRequest {
  url: string;
  /** the three Standard Webhooks headers */
  headers: Record<string, string>;
  body: string;
}

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;
type OneCallback = (error: NodeJS.ErrnoException | null, address: string, family: number) => void;

/**
 * A `net.connect` lookup that refuses non-public addresses. The registration and pre-attempt checks
 * resolve the name separately from the connection, so DNS could answer differently in between
 * (rebinding); this check sits on the address actually connected to.
 */
export function publicOnlyLookup(resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
      if (error) {
        (callback as OneCallback)(error, '', 0);
        return;
      }
      const refused = addresses.map((entry) => nonPublicAddressKind(entry.address)).find((kind) => kind !== null);
      if (refused !== undefined || addresses.length === 0) {
        const reason = new Error(`Host ${hostname} resolves to a non-public address (${refused ?? 'none'}); not connecting.`);
        (callback as OneCallback)(Object.assign(reason, { code: 'ENONPUBLIC' }), '', 0);
        return;
      }
      if ((options as { all?: boolean }).all) (callback as unknown as AllCallback)(null, addresses);
      else (callback as OneCallback)(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

const USER_AGENT = 'Lectern-Webhooks/1.0';

/** Every header an attempt sends: the signature's three and the body's description (kept with the attempt). */
export const sentHeaders = (signed: SignedRequest): Record<string, string> => ({
  ...signed.headers,
  'content-type': 'application/json',
  'user-agent': USER_AGENT,
});

function describeError(error: unknown): string {
  const err = error as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const inner = err.cause?.message ? err.cause : err;
  const code = inner.code && !inner.message?.includes(inner.code) ? ` (${inner.code})` : '';
  return `Could not deliver: ${inner.message ?? String(error)}${code}`;
}

/** The start of the answer, as text; what follows is not read, so a huge answer costs nothing. */
async function readPrefix(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_BODY_LIMIT_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT_BYTES).toString('utf8');
}

export class DeliverySender {
  // undici is loaded with the first attempt: its setup took a tenth of the server's start, and a
  // server may never send a webhook
  private undici: Promise<{ agent: Agent; request: typeof undiciRequest }> | undefined;

  constructor(private readonly options: SenderOptions) {}

  private client() {
    const { options } = this;
    return (this.undici ??= import('undici').then(({ Agent, request }) => ({
      // undici 7 follows redirects only through its redirect interceptor, which this agent does not
      // compose: a 3xx comes back as the answer, and judgeAttempt counts it as a failure.
      agent: new Agent({
        connect: { timeout: options.timeoutMs, ...(options.allowPrivateTargets ? {} : { lookup: publicOnlyLookup() }) },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      }),
      request,
    })));
  }

  /** The attempt's result, or 'interrupted' when `stop` aborted it (shutdown): then nothing is known. */
  async send(signed: SignedRequest, stop: AbortSignal): Promise<SendResult | 'interrupted'> {
    const { agent, request } = await this.client();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const within = abortWithin(stop, this.options.timeoutMs);
    try {
      const response = await request(signed.url, {
        dispatcher: agent,
        method: 'POST',
        headers: sentHeaders(signed),
        body: signed.body,
        signal: within.signal,
      });
      const responseBody = await readPrefix(response.body);
      const retryAfter = response.headers['retry-after'];
      return {
        status: response.statusCode,
        retryAfter: (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) ?? null,
        responseBody,
        error: null,
        durationMs: elapsed(),
      };
    } catch (error) {
      if (stop.aborted) return 'interrupted';
      const message = within.timedOut() ? `No complete answer within ${this.options.timeoutMs / 1000} s.` : describeError(error);
      return { status: null, retryAfter: null, responseBody: null, error: message, durationMs: elapsed() };
    } finally {
      within.release();
    }
  }

  async close(): Promise<void> {
    if (this.undici) await (await this.undici).agent.close();
  }
}
