/**
 * HTTP/1.1 over a bare TCP socket, for requests fetch refuses to send (malformed framing, odd
 * targets, unknown methods, bodies streamed without end) and for watching the connection itself.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** header names lower-cased */
  headers: Record<string, string>;
  text: string;
  body: any;
  /** the server ended the connection after this response */
  closed: boolean;
}

function parse(raw: string, closed: boolean): RawResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const text = raw.slice(end + 4);
  if (!closed && Buffer.byteLength(text) < length) return undefined;
  let body: any;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, text, body, closed };
}

/** Reads the first response on `socket`; `closed` tells whether the server ended the connection. */
export function readResponse(socket: Socket, waitForCloseMs = 1000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let raw = '';
    let complete: RawResponse | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      const response = complete ? { ...complete, closed } : parse(raw, closed);
      if (response) resolve(response);
      else reject(new Error(`no complete response before the connection ended: ${JSON.stringify(raw.slice(0, 200))}`));
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      raw += chunk;
      if (complete) return;
      complete = parse(raw, false);
      // a kept-alive connection stays open: stop waiting for its end after a while
      if (complete) timer = setTimeout(() => finish(false), waitForCloseMs);
    });
    socket.on('end', () => finish(true));
    socket.on('error', (error) => (complete ? finish(true) : reject(error)));
  });
}

/** `from` is the client address to connect from: any of 127.0.0.0/8 stands for another client. */
export function openSocket(baseUrl: string, from?: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, ...(from ? { localAddress: from } : {}) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `request` as is on a new connection and reads the answer. */
export async function rawRequest(baseUrl: string, request: string): Promise<RawResponse> {
  const socket = await openSocket(baseUrl);
  try {
    const response = readResponse(socket);
    socket.write(request);
    return await response;
  } finally {
    socket.destroy();
  }
}

/**
 * Sends `head` and then a generated body of `totalBytes` (never held in memory), writing only as
 * fast as the server reads, until the server answers. Resolves with the answer and how many body
 * bytes had been handed to the socket by then.
 */
export async function streamBody(
  baseUrl: string,
  head: string,
  options: { totalBytes: number; chunked: boolean },
): Promise<{ response: RawResponse; bytesSent: number }> {
  const socket = await openSocket(baseUrl);
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const framed = options.chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
  let bytesSent = 0;
  let answered = false;
  const response = readResponse(socket).finally(() => (answered = true));
  const pump = () => {
    while (!answered && socket.writable && bytesSent < options.totalBytes) {
      bytesSent += chunk.length;
      if (!socket.write(framed)) {
        socket.once('drain', pump);
        return;
      }
    }
    if (!answered && socket.writable && options.chunked) socket.write('0\r\n\r\n');
  };
  socket.on('error', () => {}); // writes after the server closed; the answer is what counts
  socket.write(head);
  pump();
  try {
    return { response: await response, bytesSent };
  } finally {
    socket.destroy();
  }
}
