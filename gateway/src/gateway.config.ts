import path from 'node:path';
import { readInt } from '@app/kit';
import { type PublicWebConfig, readPublicWebConfig } from './http/public-web-config';

export interface GatewayConfig {
  port: number;
  host: string;
  /** Directory of the built web app; served with history fallback when it exists. */
  webDist: string;
  /** Number of proxy hops whose X-Forwarded-For is trusted (0: none, so the header cannot spoof an address). */
  trustProxyHops: number;
  /** Forces the Secure cookie flag; it is also set whenever the request arrived over HTTPS. */
  secureCookies: boolean;
  /** Bearer token for operator-only mutations (e.g. grantTokens); unset disables them. */
  operatorToken: string | null;
  introspection: boolean;
  brandName: string;
  /** Public, non-secret settings served to the web app as /app-config.js. */
  publicWeb: PublicWebConfig;
  /** Requests handled at once before the gateway answers 503 + Retry-After instead of queueing. */
  maxInFlight: number;
  /** How long `POST /api/generate/image` waits for the image before answering 504 (the job carries on). */
  generationWaitMs: number;
  /** Image generations one client address may start per minute (per gateway instance), across accounts. */
  generationsPerAddressPerMinute: number;
  /** How often the session behind each open WebSocket is checked again; an ended one closes its sockets. */
  wsSessionCheckMs: number;
}

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    port: readInt(env, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    webDist: path.resolve(env.WEB_DIST || path.join(__dirname, '..', '..', 'web', 'dist')),
    trustProxyHops: readInt(env, 'TRUST_PROXY_HOPS', 0),
    secureCookies: env.COOKIE_SECURE === 'true',
    operatorToken: env.OPERATOR_TOKEN && env.OPERATOR_TOKEN.length >= 16 ? env.OPERATOR_TOKEN : null,
    introspection: env.GRAPHQL_INTROSPECTION !== 'false',
    brandName: env.BRAND_NAME || 'Velvet AI',
    publicWeb: readPublicWebConfig(env),
    maxInFlight: readInt(env, 'MAX_IN_FLIGHT', 1024),
    generationWaitMs: readInt(env, 'MEDIA_WAIT_TIMEOUT_MS', 180_000),
    generationsPerAddressPerMinute: readInt(env, 'MEDIA_GENERATIONS_PER_IP_PER_MINUTE', 30),
    wsSessionCheckMs: readInt(env, 'WS_SESSION_CHECK_MS', 60_000),
  };
}
