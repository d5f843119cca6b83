import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from './logger';
import { runOutsideRequestContext, runWithRequestContext } from './tracing/request-context';

/** A logger writing to memory: each line as written, raw (to see repeated keys) and parsed. */
function capturedLogger() {
  const raw: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void raw.push(line.trim()) } });
  const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, raw, lines };
}

const occurrences = (line: string, key: string) => line.split(`"${key}":`).length - 1;

describe('logger', () => {
  it('puts the request id and member on every line written inside a request, also after awaits', async () => {
    const { logger, lines } = capturedLogger();
    await runWithRequestContext({ requestId: 'req-1', userId: 'user-1' }, async () => {
      logger.info('first');
      await sleep(1);
      logger.warn({ subject: 'svc.identity.register' }, 'later');
    });
    expect(lines()).toEqual([
      expect.objectContaining({ msg: 'first', requestId: 'req-1', userId: 'user-1' }),
      expect.objectContaining({ msg: 'later', requestId: 'req-1', userId: 'user-1', subject: 'svc.identity.register' }),
    ]);
  });

  it('adds nothing outside a request, or in work a request set off but that does not serve it', () => {
    const { logger, lines } = capturedLogger();
    logger.info('startup');
    runWithRequestContext({ requestId: 'req-2' }, () => runOutsideRequestContext(() => logger.info('event delivered')));
    for (const line of lines()) {
      expect(line).not.toHaveProperty('requestId');
      expect(line).not.toHaveProperty('userId');
    }
  });

  it('carries the member once the request learns who it is', () => {
    const { logger, lines } = capturedLogger();
    const context: { requestId: string; userId?: string } = { requestId: 'req-3' };
    runWithRequestContext(context, () => {
      logger.info('before the session is read');
      context.userId = 'user-3';
      logger.info('after');
    });
    expect(lines()[0]).not.toHaveProperty('userId');
    expect(lines()[1]).toMatchObject({ requestId: 'req-3', userId: 'user-3' });
  });

  it('never writes a key twice when the line or its logger already has it (the access log binds requestId)', () => {
    const { logger, raw, lines } = capturedLogger();
    runWithRequestContext({ requestId: 'req-4', userId: 'user-4' }, () => {
      logger.child({ requestId: 'req-4' }).info('request');
      logger.info({ userId: 'someone-else' }, 'explicit');
    });
    for (const line of raw) {
      expect(occurrences(line, 'requestId')).toBe(1);
      expect(occurrences(line, 'userId')).toBe(1);
    }
    expect(lines()[1]).toMatchObject({ requestId: 'req-4', userId: 'someone-else' });
  });

  it('adds no trace ids while tracing is off', () => {
    const { logger, lines } = capturedLogger();
    runWithRequestContext({ requestId: 'req-5' }, () => logger.info('untraced'));
    expect(lines()[0]).not.toHaveProperty('traceId');
    expect(lines()[0]).not.toHaveProperty('spanId');
  });
});
