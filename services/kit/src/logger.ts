import pino from 'pino';
import { loggingEnvironment } from './env/kit.environment';

const { LOG_LEVEL, SERVICE_NAME } = loggingEnvironment.parse(process.env);

/** Structured JSON logs; secrets are redacted wherever they might appear. */
export const logger = pino({
  level: LOG_LEVEL ?? (process.env.NODE_ENV?.trim() === 'test' ? 'silent' : 'info'),
  base: { service: SERVICE_NAME },
  // Errors keep type, message, code and stack only: driver errors carry query parameters (hashes, tokens).
  serializers: {
    err: (error: unknown) => {
      if (!(error instanceof Error)) return error;
      return { type: error.name, message: error.message, code: (error as { code?: unknown }).code, stack: error.stack };
    },
  },
  redact: {
    paths: [
      'password',
      'confirmPassword',
      '*.password',
      '*.confirmPassword',
      '*.*.password',
      'sessionToken',
      '*.sessionToken',
      'token',
      '*.token',
      'req.headers.cookie',
      'req.headers.authorization',
      'headers.cookie',
      'headers.authorization',
    ],
    censor: '[redacted]',
  },
});

export type Logger = typeof logger;
