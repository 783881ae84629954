import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Node closes a kept-alive connection when its idle timer fires. The timer runs at the start of
 * an event-loop turn, before the turn reads the sockets: after a stall (a long export, a heap
 * snapshot, a busy machine) it fires even though the client's next request is already waiting in
 * the socket, and the client sees its request reset ("other side closed", ECONNRESET) although
 * it reused the connection well within the advertised `Keep-Alive: timeout`. So the close waits
 * one turn, after the sockets have been read, and happens only when nothing arrived meanwhile.
 */
export function closeIdleAfterPendingReads(server: Server): void {
  // with a 'timeout' listener, Node leaves the socket open for the listener to decide
  server.on('timeout', (socket: Socket & { _httpMessage?: unknown }) => {
    const readBefore = socket.bytesRead;
    setImmediate(() => {
      if (socket.bytesRead === readBefore && !socket._httpMessage) socket.destroy();
    });
  });
}
