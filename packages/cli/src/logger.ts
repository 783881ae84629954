import { pino, type Logger } from 'pino';
import type { AccessLogEntry } from '@lectern/http';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/**
 * Bytes of log lines gathered before one write: a few hundred access lines. Each write is a round
 * trip to Node's thread pool, which costs far more than encoding a line (a write per line cost
 * more than the request it logged).
 */
const BLOCK_BYTES = 64 * 1024;
/** The longest a line waits in the buffer on a quiet server. */
const FLUSH_EVERY_MS = 200;
const SERVICE = 'lectern';
const INFO = pino.levels.values.info!;

export interface ServerLogger extends Logger {
  /** writes every buffered line now: before output a person or a script waits for, and at exit */
  flushNow(): void;
  /** the per-request line, as `info(entry, 'request')` would write it */
  access(entry: AccessLogEntry): void;
}

// what request ids, methods, routes and reasons are made of: nothing JSON would escape
const PLAIN = /^[\w .:/@~!$&'()*+,;=-]*$/;
const jsonString = (value: string | null): string => (value === null ? 'null' : PLAIN.test(value) ? `"${value}"` : JSON.stringify(value));

/**
 * The access line is written once per request, so it is built by hand rather than by pino, whose
 * object walk and redaction cost more than the rest of the line: it holds only the request id,
 * method, route pattern, status, duration and a parser reason, none of which can carry a secret.
 * It is byte for byte what pino writes for `info(entry, 'request')` with this logger's options.
 */
export function accessLine(logger: Logger, write: (line: string) => void): (entry: AccessLogEntry) => void {
  // a millisecond-resolution clock: under load many lines share a timestamp
  let lastMs = -1;
  let lastTime = '';
  return (entry) => {
    if (logger.levelVal > INFO) return;
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      lastTime = new Date(now).toISOString();
    }
    write(
      `{"level":${INFO},"time":"${lastTime}","service":"${SERVICE}","request_id":${jsonString(entry.request_id)},"method":${jsonString(entry.method)},"route":${jsonString(entry.route)},"status":${entry.status},"duration_ms":${entry.duration_ms}${entry.reason !== undefined ? `,"reason":${jsonString(entry.reason)}` : ''},"msg":"request"}\n`,
    );
  };
}

/** The server logger's pino options (the access line is built to match what they write). */
export const pinoOptions = (level: LogLevel) => ({
  level,
  base: { service: SERVICE },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: ['token', '*.token', 'authorization', '*.authorization', 'secret', '*.secret'], censor: '[redacted]' },
});

/** Where blocks go: SonicBoom in its 'buffer' mode (see openLineBuffer). */
export interface BlockDestination {
  /** queues a block */
  write(data: Buffer): boolean;
  /** starts writing what is queued, off the main thread, unless a write is under way */
  flush(): void;
  /** writes what is queued before returning */
  flushSync(): void;
}

/**
 * Lines gathered into one block of bytes before they reach the destination. Each line is encoded
 * into the block as it comes; the destination gets whole blocks, each written by one call on
 * Node's thread pool. Handing it strings cost more: it measures and re-encodes what it gathers,
 * and a block glued from many strings is copied again before it is written. Every line, pino's
 * and the access lines, goes through here, so they keep their order.
 */
export class LineBuffer {
  private block: Buffer;
  private used = 0;

  constructor(
    private readonly destination: BlockDestination,
    private readonly blockBytes = BLOCK_BYTES,
  ) {
    this.block = Buffer.allocUnsafe(blockBytes);
  }

  write(line: string): boolean {
    // a UTF-16 unit takes at most 3 bytes in UTF-8
    if (this.used + line.length * 3 > this.blockBytes) {
      this.drain();
      if (line.length * 3 > this.blockBytes) {
        this.destination.write(Buffer.from(line));
        this.destination.flush();
        return true;
      }
    }
    this.used += this.block.write(line, this.used);
    return true;
  }

  /**
   * Hands the lines gathered so far on and has the destination write what it holds, without
   * blocking. Blocks queued while a write was under way wait for the next call, FLUSH_EVERY_MS at
   * most.
   */
  drain(): void {
    this.handOver();
    this.destination.flush();
  }

  /**
   * Writes every line gathered so far before returning: for output a person or a script waits
   * for, and at exit. A block the thread pool is writing at that moment is left to it (it may land
   * after these lines, or, at exit, not at all).
   */
  drainSync(): void {
    // what is queued goes first: the block handed over then stays under SonicBoom's minLength, so
    // it waits for the synchronous write instead of leaving on the thread pool
    this.destination.flushSync();
    this.handOver();
    this.destination.flushSync();
  }

  private handOver(): void {
    if (this.used === 0) return;
    // the destination keeps the block until it is written: the next lines go into a new one
    const full = this.block.subarray(0, this.used);
    this.block = Buffer.allocUnsafe(this.blockBytes);
    this.used = 0;
    this.destination.write(full);
  }
}

/**
 * A line buffer writing to `fd`. SonicBoom writes by itself once `minLength` bytes are queued;
 * that is set above a block so that a block is written only when asked (`flush`), and one handed
 * over by `drainSync` stays queued for its synchronous write rather than leaving on the thread pool.
 */
export function openLineBuffer(fd: number, blockBytes = BLOCK_BYTES): LineBuffer {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    contentMode: 'buffer',
    minLength: 2 * blockBytes,
    maxWrite: 4 * blockBytes,
  });
  // SonicBoom's types know only its default string mode; in 'buffer' mode it takes Buffers
  return new LineBuffer(destination as unknown as BlockDestination, blockBytes);
}

/**
 * Structured JSON lines on stdout; secrets are never passed to it, and redaction guards mistakes.
 * Lines are buffered and written asynchronously (docs/operations.md, "Logs"): at most
 * FLUSH_EVERY_MS late, and whatever is buffered is written before the process exits.
 */
export function createLogger(level: LogLevel): ServerLogger {
  const lines = openLineBuffer(1);
  setInterval(() => lines.drain(), FLUSH_EVERY_MS).unref();
  const flushNow = () => {
    try {
      lines.drainSync();
    } catch {
      // nothing to write yet, or stdout is gone: neither is worth failing over
    }
  };
  process.on('exit', flushNow);
  const logger = pino(pinoOptions(level), lines);
  return Object.assign(logger, { flushNow, access: accessLine(logger, (line) => lines.write(line)) });
}
