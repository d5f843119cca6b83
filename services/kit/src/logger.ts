import pino, { type DestinationStream } from 'pino';
import { loggingEnvironment } from './env/kit.environment';
import { currentRequestContext } from './tracing/request-context';
import { activeTraceIds } from './tracing/spans';

const { LOG_LEVEL, SERVICE_NAME } = loggingEnvironment.parse(process.env);

/**
 * What a line written inside a request adds: its request id and member, and the active span's ids when tracing
 * is on. A key the line or its logger already has (pino-http binds `requestId`) is left to them: JSON keys stay unique.
 */
export function requestFields(line: object, bindings: () => object): Record<string, string> {
  const fields: Record<string, string> = {};
  const request = currentRequestContext();
  if (request?.requestId) fields.requestId = request.requestId;
  if (request?.userId) fields.userId = request.userId;
  const trace = activeTraceIds();
  if (trace) Object.assign(fields, trace);
  if (Object.keys(fields).length === 0) return fields;
  const bound = bindings();
  for (const key of Object.keys(fields)) if (key in line || key in bound) delete fields[key];
  return fields;
}

/** Structured JSON logs to stdout (or `destination`); secrets are redacted wherever they might appear. */
export function createLogger(options: { destination?: DestinationStream; level?: string } = {}) {
  return pino(
    {
      level: options.level ?? LOG_LEVEL ?? (process.env.NODE_ENV?.trim() === 'test' ? 'silent' : 'info'),
      base: { service: SERVICE_NAME },
      mixin: (line, _level, instance) => requestFields(line, () => instance.bindings()),
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
    },
    options.destination,
  );
}

export const logger = createLogger();

export type Logger = typeof logger;
