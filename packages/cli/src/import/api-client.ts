/**
 * The importer's HTTP client for the public API. It waits out 429s (Retry-After) however often
 * they come, retries 5xx answers and dropped connections with backoff, and turns 401/403 into a
 * StopError that ends the run: a token that lacks a right will not gain it by retrying.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any endpoint's JSON; each caller reads the fields its request returns
  body: any;
  /** the Retry-After header of a 429 */
  retryAfter: string | null;
}

export interface ApiClientOptions {
  /** waits before each retry of a 5xx or a dropped connection; their number is the number of retries */
  retryDelaysMs?: readonly number[];
  /** per-request limit; an answer that takes longer counts as a dropped connection */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** told about every wait, for the progress line */
  onWait?: (reason: string, ms: number) => void;
  /** once aborted, a request in progress or waiting to be retried ends with a StopError */
  signal?: AbortSignal;
}

/** Ends the run: the server refused the token, or stayed unreachable through every retry. */
export class StopError extends Error {}

const DEFAULT_RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];
/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleepUnless(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

export class ImportApiClient {
  private readonly base: string;
  private readonly retryDelays: readonly number[];
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    baseUrl: string,
    private readonly token: string,
    private readonly options: ApiClientOptions = {},
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
    this.retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.sleep = options.sleep ?? ((ms) => sleepUnless(ms, options.signal));
  }

  get(path: string): Promise<ApiAnswer> {
    return this.request('GET', path);
  }

  /**
   * Bulk submits and create-or-get POSTs are retried after a dropped connection too: the routes the
   * importer posts to make a repeated item harmless (docs/imports.md, "Retries").
   */
  post(path: string, body: unknown): Promise<ApiAnswer> {
    return this.request('POST', path, body);
  }

  patch(path: string, body: unknown): Promise<ApiAnswer> {
    return this.request('PATCH', path, body);
  }

  async request(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
    let failures = 0;
    for (;;) {
      if (this.options.signal?.aborted) throw new StopError('the import was interrupted');
      let answer: ApiAnswer | undefined;
      let trouble: string;
      try {
        answer = await this.once(method, path, body);
      } catch (error) {
        if (this.options.signal?.aborted) throw new StopError('the import was interrupted');
        trouble = `cannot reach ${this.base} (${describeNetworkError(error)})`;
      }
      if (answer) {
        if (answer.status === 429) {
          const ms = retryAfterMs(answer);
          this.options.onWait?.('rate limited', ms);
          await this.sleep(ms);
          continue;
        }
        if (answer.status === 401 || answer.status === 403) {
          throw new StopError(
            `the server refused the token for ${method} ${path}: ${answer.status} ${answer.body?.error?.code ?? ''} ${answer.body?.error?.message ?? ''}`.trim(),
          );
        }
        if (answer.status < 500) return answer;
        trouble = `${method} ${path} answered ${answer.status} ${answer.body?.error?.code ?? ''}`.trim();
      }
      if (failures >= this.retryDelays.length) throw new StopError(`${trouble!}; gave up after ${failures + 1} attempts`);
      const delay = withJitter(this.retryDelays[failures++]!);
      this.options.onWait?.(trouble!, delay);
      await this.sleep(delay);
    }
  }

  /**
   * Sends a file as the body of one POST (streamed from disk), waiting out 429s. It is not sent
   * again after a dropped connection: the server may have stored it, and a second upload would be
   * a second import (harmless, its rows would read `existing`, but not what was asked).
   */
  async upload(path: string, file: string, headers: Record<string, string>): Promise<ApiAnswer> {
    for (;;) {
      if (this.options.signal?.aborted) throw new StopError('the import was interrupted');
      let response: Response;
      try {
        response = await fetch(this.base + path, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.token}`, accept: 'application/json', ...headers },
          body: Readable.toWeb(createReadStream(file)) as ReadableStream,
          duplex: 'half',
          ...(this.options.signal ? { signal: this.options.signal } : {}),
        } as RequestInit);
      } catch (error) {
        throw new StopError(`cannot send the file to ${this.base} (${describeNetworkError(error)})`);
      }
      const answer = await answerOf(response);
      if (answer.status !== 429 && answer.status !== 503) return answer;
      const ms = retryAfterMs(answer);
      this.options.onWait?.(answer.status === 429 ? 'rate limited' : 'server busy', ms);
      await this.sleep(ms);
    }
  }

  /** Hands a GET's body (a report) to `write` as it arrives; the status when it is not 200. */
  async download(path: string, write: (chunk: Uint8Array) => Promise<unknown>): Promise<number> {
    for (let failures = 0; ; failures++) {
      try {
        const response = await fetch(this.base + path, { headers: { authorization: `Bearer ${this.token}` } });
        if (response.status === 429 && failures < 20) {
          await this.sleep(retryAfterMs({ status: 429, body: null, retryAfter: response.headers.get('retry-after') }));
          continue;
        }
        if (response.status !== 200 || !response.body) return response.status;
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) await write(chunk);
        return 200;
      } catch (error) {
        if (failures >= this.retryDelays.length) throw new StopError(`cannot read the report (${describeNetworkError(error)})`);
        await this.sleep(withJitter(this.retryDelays[failures]!));
      }
    }
  }

  private async once(method: string, path: string, body: unknown): Promise<ApiAnswer> {
    const response = await fetch(this.base + path, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: this.options.signal
        ? AbortSignal.any([this.options.signal, AbortSignal.timeout(this.timeoutMs)])
        : AbortSignal.timeout(this.timeoutMs),
    });
    return answerOf(response);
  }
}

async function answerOf(response: Response): Promise<ApiAnswer> {
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    // a proxy's HTML error page: the status says enough
  }
  return { status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') };
}

function retryAfterMs(answer: ApiAnswer): number {
  const seconds = Number(answer.retryAfter ?? NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.max(seconds * 1000, 50) : 1000;
}

/** ±25 %: importers started together should not retry in step. */
const withJitter = (ms: number) => Math.round(ms * (0.75 + Math.random() * 0.5));

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  if ((error as Error)?.name === 'TimeoutError') return 'no answer in time';
  return (error as Error)?.message ?? String(error);
}
