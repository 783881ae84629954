import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The server's connection limits: a cap per client address and a cap overall. A full server does
 * not simply refuse newcomers, which let a few addresses holding idle or slow-header sockets lock
 * every other client out: it closes a connection that has no request in progress (idle between
 * requests, or still sending its headers) to make room, taken from the address holding the most
 * connections, its oldest first. Only when every connection is answering a request is a new one
 * closed as it arrives.
 */
export interface ConnectionCaps {
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

interface Logger {
  warn(details: object, message?: string): void;
}

/** What the table knows of one open connection. */
export interface OpenConnection {
  address: string;
  /** requests on it that have not finished their response */
  busy: number;
  /** when it last had no request in progress (performance.now()) */
  idleSince: number;
}

const LOG_INTERVAL_MS = 10_000;

/**
 * The connection to close so that a newcomer fits: one without a request in progress, from the
 * address with the most open connections, the longest idle of those. Undefined when every
 * connection is busy. Pure, for the tests.
 */
export function connectionToShed<T>(open: ReadonlyMap<T, OpenConnection>, perAddress: ReadonlyMap<string, number>): T | undefined {
  let chosen: T | undefined;
  let chosenCount = -1;
  let chosenSince = Infinity;
  for (const [key, connection] of open) {
    if (connection.busy > 0) continue;
    const count = perAddress.get(connection.address) ?? 0;
    if (count > chosenCount || (count === chosenCount && connection.idleSince < chosenSince)) {
      chosen = key;
      chosenCount = count;
      chosenSince = connection.idleSince;
    }
  }
  return chosen;
}

/**
 * Counts closed connections and logs them at most every 10 s, so a flood does not flood the log
 * too; `dropped` is the field the server's logs have always counted them in.
 */
function throttledWarning(logger: Logger | undefined, message: string) {
  let dropped = 0;
  let last = -Infinity;
  return (details: object) => {
    dropped++;
    if (performance.now() - last < LOG_INTERVAL_MS) return;
    logger?.warn({ ...details, dropped }, message);
    last = performance.now();
    dropped = 0;
  };
}

export function limitConnections(server: Server, caps: ConnectionCaps, logger?: Logger): void {
  const open = new Map<Socket, OpenConnection>();
  const perAddress = new Map<string, number>();
  const refusedForAddress = throttledWarning(logger, 'connection limit per address reached: closing its new connections');
  const refusedAllBusy = throttledWarning(logger, 'connection limit reached, every connection busy: closing new connections');
  const shed = throttledWarning(logger, 'connection limit reached: closing idle connections to make room');

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const fromAddress = perAddress.get(address) ?? 0;
    if (fromAddress >= caps.maxConnectionsPerAddress) {
      socket.destroy();
      refusedForAddress({ address, max_connections_per_address: caps.maxConnectionsPerAddress });
      return;
    }
    if (open.size >= caps.maxConnections) {
      const victim = connectionToShed(open, perAddress);
      if (victim === undefined) {
        socket.destroy();
        refusedAllBusy({ max_connections: caps.maxConnections });
        return;
      }
      shed({ max_connections: caps.maxConnections, closed_from: open.get(victim)!.address });
      forget(victim);
      victim.destroy();
    }
    open.set(socket, { address, busy: 0, idleSince: performance.now() });
    perAddress.set(address, fromAddress + 1);
    socket.once('close', () => forget(socket));
  });

  function forget(socket: Socket): void {
    const connection = open.get(socket);
    if (!connection) return;
    open.delete(socket);
    const left = perAddress.get(connection.address)! - 1;
    if (left === 0) perAddress.delete(connection.address);
    else perAddress.set(connection.address, left);
  }

  // a connection is busy from a request's headers to the end of its response
  const started = (request: IncomingMessage, response: ServerResponse) => {
    const connection = open.get(request.socket as Socket);
    if (!connection) return;
    connection.busy++;
    let done = false;
    const finished = () => {
      if (done) return;
      done = true;
      connection.busy--;
      connection.idleSince = performance.now();
    };
    response.once('finish', finished);
    response.once('close', finished);
  };
  server.on('request', started);
  server.on('checkContinue', started);
  server.on('checkExpectation', started);
}
