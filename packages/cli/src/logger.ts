import { pino, type Logger } from 'pino';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Bytes of log lines gathered before one write: a write per request line cost more than the request. */
const BUFFER_BYTES = 8 * 1024;
/** The longest a line waits in the buffer on a quiet server. */
const FLUSH_EVERY_MS = 200;

export interface ServerLogger extends Logger {
  /** writes every buffered line now: before output a person or a script waits for, and at exit */
  flushNow(): void;
}

/**
 * Structured JSON lines on stdout; secrets are never passed to it, and redaction guards mistakes.
 * Lines are buffered and written asynchronously (docs/operations.md, "Logs"): at most
 * FLUSH_EVERY_MS late, and whatever is buffered is written before the process exits.
 */
export function createLogger(level: LogLevel): ServerLogger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES });
  setInterval(() => destination.flush(), FLUSH_EVERY_MS).unref();
  const flushNow = () => {
    try {
      destination.flushSync();
    } catch {
      // nothing to write yet, or stdout is gone: neither is worth failing over
    }
  };
  process.on('exit', flushNow);
  const logger = pino(
    {
      level,
      base: { service: 'lectern' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['token', '*.token', 'authorization', '*.authorization', 'secret', '*.secret'], censor: '[redacted]' },
    },
    destination,
  );
  return Object.assign(logger, { flushNow });
}
