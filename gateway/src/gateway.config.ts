import path from 'node:path';
import { listenEnvironment } from '@app/kit';
import { gatewayEnvironment } from './gateway.environment';
import { type ConnectionLimits } from './http/connection-limits';
import { type GraphQLRateLimitSettings } from './http/graphql-rate-limits';
import { type PressureLimits } from './http/load-shedding';
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
  /** Bearer token for operator-only mutations (e.g. grantTokens), at least 16 characters; unset disables them. */
  operatorToken: string | null;
  /** Signs the upload links the gateway receives itself (local and memory storage); null: a random secret of this process. */
  uploadSigningSecret: string | null;
  introspection: boolean;
  /** Automatic persisted queries for every client (the web app's trusted documents work either way). */
  apq: boolean;
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
  /** Requests to /graphql per address and per credential in a window (0: no limit). */
  graphqlRateLimits: GraphQLRateLimitSettings;
  /** How long a looked-up session is reused before identity is asked again (0: always ask). */
  sessionCacheMs: number;
}

/** The gateway's settings from its environment; an invalid value throws an error naming the variable. */
export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const vars = gatewayEnvironment.parse(env);
  const { HOST } = listenEnvironment.parse(env);
  return {
    port: vars.PORT,
    host: HOST,
    webDist: path.resolve(vars.WEB_DIST ?? path.join(__dirname, '..', '..', 'web', 'dist')),
    trustProxyHops: vars.TRUST_PROXY_HOPS,
    secureCookies: vars.COOKIE_SECURE,
    operatorToken: vars.OPERATOR_TOKEN,
    uploadSigningSecret: vars.UPLOAD_SIGNING_SECRET,
    introspection: vars.GRAPHQL_INTROSPECTION,
    apq: vars.GRAPHQL_APQ,
    brandName: readPublicWebConfig(env).brandName,
    publicWeb: readPublicWebConfig(env),
    pressure: {
      maxInFlight: vars.MAX_IN_FLIGHT,
      maxEventLoopDelayMs: vars.MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedBytes: vars.MAX_HEAP_USED_BYTES,
      maxRssBytes: vars.MAX_RSS_BYTES,
      quietAddressRequestsPerSecond: vars.QUIET_ADDRESS_REQUESTS_PER_SECOND,
      sampleIntervalMs: vars.PRESSURE_SAMPLE_INTERVAL_MS,
    },
    connections: {
      headersTimeoutMs: vars.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: vars.HTTP_REQUEST_TIMEOUT_MS,
      bodyIdleTimeoutMs: vars.HTTP_BODY_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: vars.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      // Behind a trusted proxy every connection comes from the proxy, which must do this itself.
      maxConnectionsPerAddress: vars.MAX_CONNECTIONS_PER_ADDRESS ?? (vars.TRUST_PROXY_HOPS > 0 ? 0 : 128),
    },
    executionTimeoutMs: vars.GRAPHQL_EXECUTION_TIMEOUT_MS,
    wsMaxSubscriptionsPerSocket: vars.WS_MAX_SUBSCRIPTIONS_PER_SOCKET,
    wsMaxSocketsPerMember: vars.WS_MAX_SOCKETS_PER_MEMBER,
    generationWaitMs: vars.MEDIA_WAIT_TIMEOUT_MS,
    generationsPerAddressPerMinute: vars.MEDIA_GENERATIONS_PER_IP_PER_MINUTE,
    wsSessionCheckMs: vars.WS_SESSION_CHECK_MS,
    sessionCacheMs: vars.SESSION_CACHE_MS,
    graphqlRateLimits: {
      perAddress: vars.GRAPHQL_RATE_LIMIT_PER_ADDRESS,
      perCredential: vars.GRAPHQL_RATE_LIMIT_PER_CREDENTIAL,
      windowSeconds: vars.GRAPHQL_RATE_LIMIT_WINDOW_SECONDS,
    },
  };
}
