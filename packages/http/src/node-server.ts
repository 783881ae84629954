import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { App } from './app.ts';
import type { Refusal } from './plain.ts';
import { clientErrorRefusal } from './client-error.ts';
import { limitConnections } from './connection-limits.ts';
import { framingRefusal } from './framing.ts';
import { closeIdleAfterPendingReads } from './keep-alive.ts';
import { MAX_BODY_BYTES, type PlainResponse } from './plain.ts';

export interface ServerLimits {
  /** time a client has to send a request's headers (the first request's, from connecting) */
  headersTimeoutMs: number;
  /** time a client has to send a request's body once its headers are in; at least `headersTimeoutMs` */
  requestTimeoutMs: number;
  /**
   * the same for an upload to a streaming route (an import's file), whose body may rightly take
   * minutes: 256 MiB over a 10 Mbit/s line takes more than three
   */
  uploadTimeoutMs: number;
  /**
   * open connections; when full, one without a request in progress is closed to make room for a
   * newcomer, and a newcomer is closed only when every connection is answering a request
   */
  maxConnections: number;
  /**
   * open connections from one client address; more from it are closed as they arrive, so one
   * client cannot hold every slot of `maxConnections` (behind a proxy, raise it to that figure)
   */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  uploadTimeoutMs: 3_600_000,
  maxConnections: 1000,
  maxConnectionsPerAddress: 100,
};

export interface ServerOptions extends Partial<ServerLimits> {
  /** told, at most every 10 s, how many connections the limit turned away */
  logger?: { warn(details: object, message?: string): void };
}

/**
 * After a response that leaves request bytes unread (a body over the limit, a request the parser
 * rejected), the client may still be sending. Closing the socket with bytes unread makes the
 * kernel answer with a reset, which can destroy the response before the client has read it; so
 * the socket is half-closed first and the rest read and dropped for this long.
 */
const LINGER_MS = 2000;

function lingeringClose(socket: Duplex): void {
  socket.end();
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Node destroys a `Connection: close` socket as soon as the response is flushed: linger instead. */
function lingerAfterResponse(response: ServerResponse): void {
  const socket = response.socket;
  if (socket) Object.assign(socket, { destroySoon: () => lingeringClose(socket) });
}

/** A response written straight to the socket, for requests Node never turned into a request object. */
function rawResponse(result: PlainResponse): string {
  const head = [
    `HTTP/1.1 ${result.status} ${STATUS_CODES[result.status] ?? ''}`,
    `Date: ${new Date().toUTCString()}`,
    ...Object.entries(result.headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${result.body ?? ''}`;
}

interface ReadBody {
  body: Buffer | null;
  /** the body crossed the limit: what is left of it is dropped, and the connection must close */
  tooLarge: boolean;
}

const NO_BODY: ReadBody = { body: null, tooLarge: false };
const TOO_LARGE: ReadBody = { body: null, tooLarge: true };

/**
 * Reads the body, or stops the moment it is known to exceed the limit. A request without one (most
 * are GETs) is answered at once rather than a turn later.
 */
function readBody(request: IncomingMessage): ReadBody | Promise<ReadBody> {
  const declared = request.headers['content-length'];
  if (declared === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return NO_BODY;
  }
  if (Number(declared) > MAX_BODY_BYTES) {
    request.resume();
    return TOO_LARGE;
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      request.off('data', onData);
      request.resume();
      resolve({ body: null, tooLarge: true });
    };
    request.on('data', onData);
    request.on('end', () => resolve({ body: Buffer.concat(chunks), tooLarge: false }));
    request.on('error', reject);
    // a connection cut mid-body (a timeout, the client gone): after 'end' this changes nothing
    request.on('close', () => reject(new Error('the connection closed before the body was read')));
  });
}

function write(response: ServerResponse, result: PlainResponse, close: boolean): void {
  if (close) {
    lingerAfterResponse(response);
    result.headers.Connection = 'close';
  }
  response.writeHead(result.status, result.headers);
  if (result.stream) void sendStream(response, result.stream);
  else response.end(result.body ?? undefined);
}

/** Resolves when the connection has taken what was written, or has closed. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/**
 * Writes a streamed body (an export) with back-pressure: the next chunk is produced only once the
 * socket has taken the last, so a client that stops reading stops the database reads too and the
 * server holds about one chunk for it. A failure after the headers can only cut the connection,
 * which the client sees as a body that ended early.
 */
async function sendStream(response: ServerResponse, chunks: AsyncIterable<string>): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]();
  try {
    for (;;) {
      if (response.destroyed) break;
      const { value, done } = await iterator.next();
      if (done) {
        response.end();
        return;
      }
      if (!response.write(value) && !response.destroyed) await drained(response);
    }
    await iterator.return?.();
  } catch {
    response.destroy();
  }
}

const TIMED_OUT = Symbol('timed out');

/** Resolves with TIMED_OUT once `ms` have passed, unless the body arrives first. */
function bodyOrDeadline(read: Promise<ReadBody>, ms: number): Promise<ReadBody | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)));
  // once the deadline has answered, the read still ends (the connection closes): nothing waits for it
  read.catch(() => undefined);
  return Promise.race([read, deadline]).finally(() => clearTimeout(timer));
}

async function serve(app: App, request: IncomingMessage, response: ServerResponse, requestTimeoutMs: number): Promise<void> {
  const remoteAddress = request.socket.remoteAddress ?? 'unknown';
  try {
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is 400 (Node's own check would answer bare)
    if (request.httpVersion === '1.1' && request.headers.host === undefined) {
      const refusal = { code: 'bad_request', message: 'An HTTP/1.1 request must carry a Host header.', reason: 'missing_host' } as const;
      request.resume();
      write(response, app.refuse({ ...refusal, remoteAddress, method: request.method, headers: request.headers }), true);
      return;
    }
    const framing = framingRefusal(request);
    if (framing) {
      request.resume();
      write(response, app.refuse({ ...framing, remoteAddress, method: request.method, headers: request.headers }), true);
      return;
    }
    // an upload route reads the body itself, as a stream, with its own limit
    if (app.streamLimit(request.method ?? 'GET', request.url ?? '/') !== undefined) {
      request.on('error', () => undefined);
      const result = await app.handle({
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: null,
        bodyStream: request,
        remoteAddress,
      });
      // a refusal before the end of the body (401, 413, a bad header) leaves the rest unread
      write(response, result, !request.complete);
      return;
    }
    const read = readBody(request);
    // the body within the request timeout; Node's own limit is the longer upload timeout
    const received = read instanceof Promise ? await bodyOrDeadline(read, requestTimeoutMs) : read;
    if (received === TIMED_OUT) {
      const refusal = clientErrorRefusal({ code: 'ERR_HTTP_REQUEST_TIMEOUT' });
      write(response, app.refuse({ ...refusal, remoteAddress, method: request.method, headers: request.headers }), true);
      return;
    }
    const { body, tooLarge } = received;
    const result = await app.handle({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      body,
      bodyTooLarge: tooLarge,
      remoteAddress,
    });
    write(response, result, tooLarge);
  } catch {
    // the app renders every error itself; this is a broken socket mid-read
    if (!response.headersSent) response.writeHead(400, { Connection: 'close' });
    response.end();
  }
}

/**
 * The method of the request the parser gave up on, from the bytes it was parsing, so that a HEAD
 * refused for its headers (431) is answered without a body like any other HEAD.
 */
function methodOf(rawPacket: unknown): { method?: string } {
  if (!Buffer.isBuffer(rawPacket)) return {};
  const method = /^([A-Z]{1,16}) /.exec(rawPacket.toString('latin1', 0, 17))?.[1];
  return method ? { method } : {};
}

/** `Socket` as Node's http server hands it over, with the response it is writing, if any. */
type HttpSocket = Duplex & Partial<Pick<Socket, 'remoteAddress'>> & { _httpMessage?: ServerResponse | null };

export function createNodeServer(app: App, options: ServerOptions = {}): Server {
  const limits: ServerLimits = {
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_SERVER_LIMITS.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_SERVER_LIMITS.requestTimeoutMs,
    uploadTimeoutMs: options.uploadTimeoutMs ?? DEFAULT_SERVER_LIMITS.uploadTimeoutMs,
    maxConnections: options.maxConnections ?? DEFAULT_SERVER_LIMITS.maxConnections,
    maxConnectionsPerAddress: options.maxConnectionsPerAddress ?? DEFAULT_SERVER_LIMITS.maxConnectionsPerAddress,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1`);
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error(
      `the headers timeout (${limits.headersTimeoutMs} ms) must not exceed the request timeout (${limits.requestTimeoutMs} ms)`,
    );
  }

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // Node's own limit is one for every request, so it is the longer one; serve() holds other
      // requests' bodies to the request timeout itself
      requestTimeout: Math.max(limits.requestTimeoutMs, limits.uploadTimeoutMs),
      // Node checks the timeouts every 30 s by default, so a 10 s limit could hold for 40 s
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
      requireHostHeader: false,
    },
    (request, response) => void serve(app, request, response, limits.requestTimeoutMs),
  );

  // Every answer goes through the app, so it has the envelope, X-Request-Id and a log line.
  const refused = new WeakSet<Duplex>();
  const refuseOnSocket = (socket: HttpSocket, refusal: Omit<Refusal, 'remoteAddress'>) => {
    // the parser reports again for every later chunk; answer once
    if (refused.has(socket)) return;
    refused.add(socket);
    const inFlight = socket._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    // The error is in a request pipelined after one still being answered: an answer now would be
    // taken for that one's. Let it finish, then close; the broken request gets no answer.
    if (inFlight?.req.complete) {
      inFlight.setHeader('Connection', 'close');
      lingerAfterResponse(inFlight);
      return;
    }
    socket.write(rawResponse(app.refuse({ ...refusal, remoteAddress: socket.remoteAddress ?? 'unknown' })));
    lingeringClose(socket);
  };
  server.on('clientError', (error: NodeJS.ErrnoException & { reason?: string; rawPacket?: unknown }, socket: HttpSocket) => {
    if (error.code === 'ECONNRESET') socket.destroy();
    else refuseOnSocket(socket, { ...clientErrorRefusal(error), ...methodOf(error.rawPacket) });
  });
  // CONNECT's target is a host, never a path here; without a listener Node would drop the socket
  server.on('connect', (request: IncomingMessage, socket: HttpSocket) =>
    refuseOnSocket(socket, {
      code: 'bad_request',
      message: "The request target must be a path that starts with exactly one '/'.",
      reason: 'connect',
      method: 'CONNECT',
      headers: request.headers,
    }),
  );
  // Expect: 100-continue with a declared body over the limit gets its 413 before the body is sent
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    const limit = app.streamLimit(request.method ?? 'GET', request.url ?? '/') ?? MAX_BODY_BYTES;
    if (!(Number(request.headers['content-length']) > limit)) response.writeContinue();
    void serve(app, request, response, limits.requestTimeoutMs);
  });
  // other expectations reach the app, which answers 417 in the envelope
  server.on(
    'checkExpectation',
    (request: IncomingMessage, response: ServerResponse) => void serve(app, request, response, limits.requestTimeoutMs),
  );

  closeIdleAfterPendingReads(server);
  // after the listeners above: a 'checkContinue' listener of its own would stop Node answering 100
  limitConnections(server, limits, options.logger);
  return server;
}

export interface Listening {
  server: Server;
  /** `http://host:port` as clients reach it */
  url: string;
  /** Stops accepting, lets in-flight requests finish (cutting them after `graceMs`), then resolves. */
  close(graceMs?: number): Promise<void>;
}

export function listen(app: App, options: { port: number; host: string } & ServerOptions): Promise<Listening> {
  const server = createNodeServer(app, options);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        server,
        url: `http://${host}:${port}`,
        close: (graceMs = 10_000) =>
          new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), graceMs).unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
