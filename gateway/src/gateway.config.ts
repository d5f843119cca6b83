import path from 'node:path';
import { readInt } from '@app/kit';
import { type ConnectionLimits } from './http/connection-limits';
import { type PressureLimits, defaultMaxHeapUsedBytes } from './http/load-shedding';
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
  /** When the gateway answers 503 + Retry-After instead of taking more work: requests in flight, event-loop delay, memory. */
  pressure: PressureLimits;
  /** Header, body and keep-alive timeouts, and open connections per client address. */
  connections: ConnectionLimits;
  /** How long one GraphQL operation or REST call may spend calling services; later calls fail with TIMEOUT. */
  executionTimeoutMs: number;
  /** GraphQL subscriptions (and operations) open at once on one WebSocket. */
  wsMaxSubscriptionsPerSocket: number;
  /** WebSockets one member may hold open at once, across tabs and devices (per gateway instance). */
  wsMaxSocketsPerMember: number;
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
    pressure: {
      maxInFlight: readInt(env, 'MAX_IN_FLIGHT', 256),
      maxEventLoopDelayMs: readInt(env, 'MAX_EVENT_LOOP_DELAY_MS', 1000),
      maxHeapUsedBytes: readInt(env, 'MAX_HEAP_USED_BYTES', defaultMaxHeapUsedBytes()),
      maxRssBytes: readInt(env, 'MAX_RSS_BYTES', 0),
      quietAddressRequestsPerSecond: readInt(env, 'QUIET_ADDRESS_REQUESTS_PER_SECOND', 20),
      sampleIntervalMs: readInt(env, 'PRESSURE_SAMPLE_INTERVAL_MS', 500),
    },
    connections: {
      headersTimeoutMs: readInt(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000),
      requestTimeoutMs: readInt(env, 'HTTP_REQUEST_TIMEOUT_MS', 60_000),
      bodyIdleTimeoutMs: readInt(env, 'HTTP_BODY_IDLE_TIMEOUT_MS', 10_000),
      keepAliveTimeoutMs: readInt(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000),
      // Behind a trusted proxy every connection comes from the proxy, which must do this itself.
      maxConnectionsPerAddress: readInt(env, 'MAX_CONNECTIONS_PER_ADDRESS', readInt(env, 'TRUST_PROXY_HOPS', 0) > 0 ? 0 : 128),
    },
    executionTimeoutMs: readInt(env, 'GRAPHQL_EXECUTION_TIMEOUT_MS', 15_000),
    wsMaxSubscriptionsPerSocket: readInt(env, 'WS_MAX_SUBSCRIPTIONS_PER_SOCKET', 20),
    wsMaxSocketsPerMember: readInt(env, 'WS_MAX_SOCKETS_PER_MEMBER', 10),
    generationWaitMs: readInt(env, 'MEDIA_WAIT_TIMEOUT_MS', 180_000),
    generationsPerAddressPerMinute: readInt(env, 'MEDIA_GENERATIONS_PER_IP_PER_MINUTE', 30),
    wsSessionCheckMs: readInt(env, 'WS_SESSION_CHECK_MS', 60_000),
  };
}
