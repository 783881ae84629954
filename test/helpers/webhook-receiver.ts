/**
 * A real webhook receiver on 127.0.0.1 for tests: records every request with its raw body and
 * answers as the test scripts it (a status per request, a delay, or no answer at all).
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** the raw body, exactly as signed */
  body: string;
  /** Date.now() when the request was complete */
  at: number;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang';

/** Decides the answer to the `index`-th request (0-based, over all paths). */
export type Responder = (request: ReceivedWebhook, index: number) => Answer;

/** The three Standard Webhooks headers, as `standardwebhooks` wants them. */
export function signatureHeaders(request: ReceivedWebhook): Record<string, string> {
  return {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
}

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: Responder = () => ({ status: 200, body: 'ok' });
  /** the most requests this receiver has had open at once */
  maxInFlight = 0;
  private inFlight = 0;
  private readonly hanging = new Set<ServerResponse>();
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => receiver.handle({ path: request.url ?? '/', headers: request.headers, body, at: Date.now() }, response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // the handler above reads `receiver` only when a request arrives, after this line has run
    const receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  url(path = '/hook'): string {
    return this.baseUrl + path;
  }

  /** Requests to one path. */
  to(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Resolves with the matching requests once `count` of them have arrived. */
  async waitFor(match: (request: ReceivedWebhook) => boolean, count = 1, timeoutMs = 10_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.filter(match);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`expected ${count} matching webhook request(s), got ${found.length} of ${this.received.length} received`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: ReceivedWebhook, response: ServerResponse): void {
    const answer = this.respond(request, this.received.length);
    this.received.push(request);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
    if (answer === 'hang') {
      this.hanging.add(response);
      return;
    }
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const send = () => {
      this.inFlight--;
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body ?? '');
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  }
}

/** Answers with the listed statuses in turn, then 200 for ever. */
export const statusSequence =
  (...statuses: number[]): Responder =>
  (_request, index) => ({ status: statuses[index] ?? 200, body: `answer ${index + 1}` });
