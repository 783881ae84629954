import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.ts';
import { MAX_BODY_BYTES } from './plain.ts';

/** An oversized body is drained (so the client reads our 413) up to this much, then the socket is cut. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

interface ReadBody {
  body: Buffer | null;
  tooLarge: boolean;
}

function readBody(request: IncomingMessage): Promise<ReadBody> {
  const hasBody = request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
  if (!hasBody) {
    request.resume();
    return Promise.resolve({ body: null, tooLarge: false });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (size > MAX_DRAIN_BYTES) request.destroy();
    });
    request.on('end', () => resolve({ body: tooLarge ? null : Buffer.concat(chunks), tooLarge }));
    request.on('error', reject);
  });
}

async function serve(app: App, request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const { body, tooLarge } = await readBody(request);
    const result = await app.handle({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      body,
      bodyTooLarge: tooLarge,
      remoteAddress: request.socket.remoteAddress ?? 'unknown',
    });
    response.writeHead(result.status, result.headers);
    response.end(result.body ?? undefined);
  } catch {
    // the app renders every error itself; this is a broken socket mid-read
    if (!response.headersSent) response.writeHead(400, { Connection: 'close' });
    response.end();
  }
}

export function createNodeServer(app: App): Server {
  return createServer((request, response) => void serve(app, request, response));
}

export interface Listening {
  server: Server;
  /** `http://host:port` as clients reach it */
  url: string;
  /** Stops accepting, lets in-flight requests finish (cutting them after `graceMs`), then resolves. */
  close(graceMs?: number): Promise<void>;
}

export function listen(app: App, options: { port: number; host: string }): Promise<Listening> {
  const server = createNodeServer(app);
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
