import { pino, type Logger } from 'pino';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Structured JSON lines on stdout; secrets are never passed to it, and redaction guards mistakes. */
export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    base: { service: 'lectern' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['token', '*.token', 'authorization', '*.authorization', 'secret', '*.secret'], censor: '[redacted]' },
  });
}
