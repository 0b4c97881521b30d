import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The one logger. Personal data never goes in: request logs carry method, path template and
 * status only, and the redact list blanks the usual personal fields should one slip into an object.
 */
export function createLogger(
  level: string = process.env.LOG_LEVEL ?? 'info',
  name = 'rr',
  destination?: DestinationStream,
): Logger {
  const options = {
    name,
    level,
    redact: {
      paths: [
        'password',
        '*.password',
        'email',
        '*.email',
        'phone',
        '*.phone',
        'firstName',
        '*.firstName',
        'lastName',
        '*.lastName',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
