/**
 * Structured JSON logs (pino) on stdout. Request-scoped children carry `requestId` on every line.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(options: {
  level: string;
  destination?: pino.DestinationStream;
}): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'satchel' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Secrets never reach a log line, whichever object carries them.
      redact: {
        paths: [
          'password',
          '*.password',
          'headers.authorization',
          'headers.cookie',
          'token',
          '*.token',
        ],
        censor: '[redacted]',
      },
    },
    options.destination,
  );
}
