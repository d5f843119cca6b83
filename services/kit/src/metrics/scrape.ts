import { timingSafeEqual } from 'node:crypto';
import { metricsEnvironment } from '../env/kit.environment';

/** METRICS_TOKEN from the environment, null when unset; a token shorter than 16 characters throws, naming the variable. */
export function readMetricsToken(env: NodeJS.ProcessEnv = process.env): string | null {
  return metricsEnvironment.parse(env).METRICS_TOKEN;
}

/** Whether an `Authorization` header carries the metrics token, compared in constant time. */
export function isAuthorizedScrape(authorization: string | undefined, token: string): boolean {
  if (!authorization?.startsWith('Bearer ')) return false;
  const given = Buffer.from(authorization.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
