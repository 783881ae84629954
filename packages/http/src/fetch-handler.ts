import type { App } from './app.ts';
import { readableOf } from './export/list-export.ts';
import { MAX_BODY_BYTES } from './plain.ts';

export type FetchHandler = (request: Request, info?: { remoteAddress?: string }) => Promise<Response>;

/**
 * The same app as a WHATWG fetch handler, for embedders mounting Lectern in another server or
 * calling it in-process (tests, serverless runtimes).
 */
export function createFetchHandler(app: App): FetchHandler {
  return async (request, info = {}) => {
    const url = new URL(request.url);
    // an upload route reads the body as it arrives, with its own limit
    const streamed = request.body && app.streamLimit(request.method, url.pathname + url.search) !== undefined ? request.body : null;
    let body: Buffer | null = null;
    let bodyTooLarge = Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES;
    if (request.body && !bodyTooLarge && !streamed) {
      const bytes = Buffer.from(await request.arrayBuffer());
      if (bytes.length > MAX_BODY_BYTES) bodyTooLarge = true;
      else body = bytes;
    }
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const result = await app.handle({
      method: request.method,
      url: url.pathname + url.search,
      headers,
      body,
      bodyTooLarge,
      ...(streamed ? { bodyTooLarge: false, bodyStream: chunksOf(streamed) } : {}),
      remoteAddress: info.remoteAddress ?? 'unknown',
    });
    const sent = result.stream ? readableOf(result.stream) : bodyOf(result.body);
    return new Response(sent, { status: result.status, headers: result.headers });
  };
}

/** A request body's chunks as Buffers, read as the route asks for them. */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Buffer> {
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>)
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * A reply's body as Response takes it under both Node's and the DOM's type declarations: the DOM's
 * want a view of an ArrayBuffer, and Node's Buffers never sit on a shared one.
 */
const bodyOf = (body: string | Buffer | null): string | Uint8Array<ArrayBuffer> | null =>
  typeof body === 'string' || body === null ? body : (body as Uint8Array<ArrayBuffer>);
