import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { closeIdleAfterPendingReads } from './keep-alive.ts';

const REQUEST = 'GET / HTTP/1.1\r\nHost: test\r\n\r\n';
const ANSWER = /HTTP\/1\.1 200 OK/g;

/** Blocks this thread, timers and socket reads alike, as a long synchronous task would. */
const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Sends a request, and a second one on the same connection right after the first answer, then
 * stalls the event loop past the server's idle deadline (Node closes kept-alive sockets about a
 * second after `keepAliveTimeout`). Resolves with the answers the connection got before it closed.
 */
async function answersAfterStall(server: Server): Promise<{ answers: number; error?: string }> {
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  let received = '';
  let error: string | undefined;
  socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(REQUEST);
  await new Promise<void>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.match(ANSWER)?.length === 1) resolve();
    }),
  );
  // the request is in the server's socket before the stall begins; the idle timer ends within it
  socket.write(REQUEST);
  stall(1_500);
  await new Promise<void>((resolve) => {
    const check = () => ((received.match(ANSWER)?.length ?? 0) >= 2 || socket.destroyed ? resolve() : setImmediate(check));
    check();
  });
  socket.end();
  await closed;
  await new Promise((resolve) => server.close(resolve));
  return { answers: received.match(ANSWER)?.length ?? 0, ...(error ? { error } : {}) };
}

describe('closeIdleAfterPendingReads', () => {
  it('answers a request that reached a kept-alive connection while the event loop was stalled past its idle deadline', async () => {
    const server = createServer((_request, response) => response.end('ok'));
    closeIdleAfterPendingReads(server);
    assert.deepEqual(await answersAfterStall(server), { answers: 2 });
  });

  it('without it, Node resets that request unanswered (the race it closes)', async () => {
    const server = createServer((_request, response) => response.end('ok'));
    const outcome = await answersAfterStall(server);
    assert.equal(outcome.answers, 1);
  });

  it('still closes a connection that stays idle', async () => {
    const server = createServer((_request, response) => response.end('ok'));
    server.keepAliveTimeout = 1;
    closeIdleAfterPendingReads(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.resume();
    socket.write(REQUEST);
    await new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
