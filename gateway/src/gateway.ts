import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { type Bus, type ObjectStorage, S3Storage, logger, readMetricsToken } from '@app/kit';
import express from 'express';
import { type GatewayConfig, readGatewayConfig } from './gateway.config';
import { type GatewayContext } from './graphql/context';
import { asGraphQLError, formatGraphQLError } from './graphql/errors';
import { assertOperationAllowed } from './access/token-scopes';
import { PersistedDocumentStore, loadTrustedDocuments } from './graphql/persisted-documents';
import { GRAPHQL_PARSE_OPTIONS, queryLimitRules } from './graphql/query-limits';
import { buildGatewaySchema } from './graphql/schema';
import { serveGraphQLOverWebSocket } from './graphql/websocket';
import { bodyIdleTimeout, httpServerOptions, limitConnections } from './http/connection-limits';
import { finalErrorHandler } from './http/error-handler';
import { clearedSessionCookie, sessionCookie } from './http/cookies';
import { requestContext } from './http/request-context';
import { createSecurityHeaders, sameOriginWrites } from './http/security-headers';
import { PressureMonitor } from './http/load-shedding';
import { GraphQLRateLimits } from './http/graphql-rate-limits';
import { graphqlMetricsPlugin, httpMetrics, metricsEndpoint } from './http/metrics';
import { webAppRouter } from './http/web-app';
import { AccountDataClient } from './account-data/account-data.client';
import { ChatClient } from './chat-client';
import { IdentityClient } from './identity-client';
import { LiveHub } from './live-hub';
import { LiveSessions } from './live-sessions';
import { MediaClient } from './media-client';
import { ContentAccess } from './moderation/content-access';
import { ModerationTargets } from './moderation/moderation-targets';
import { OperatorConsole } from './operator/operator-console';
import { apiRouter } from './rest/api.router';
import { StoryClient } from './stories/story-client';

export interface Gateway {
  server: http.Server;
  listen(): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
}

export interface GatewayOptions {
  bus: Bus;
  config?: GatewayConfig;
  /** Readiness of what sits behind the gateway (embedded services, or the bus alone). */
  isReady?: () => Promise<boolean>;
  /** Where the media service keeps image files (read only here): `openObjectStorage` of the process's Infra. */
  storage: ObjectStorage;
  /** METRICS_TOKEN: what Prometheus sends to read `/metrics`; null answers `/metrics` with 404. */
  metricsToken?: string | null;
  /** PostgreSQL for the /graphql rate-limit counters, shared by every gateway; null counts in this process's memory. */
  databaseUrl?: string | null;
}

/** The public edge: GraphQL over HTTP and WebSocket, the compatible REST API, health, and the web app. */
export async function createGateway({
  bus,
  config = readGatewayConfig(),
  isReady = () => bus.isReady(),
  storage,
  metricsToken = readMetricsToken(),
  databaseUrl = null,
}: GatewayOptions): Promise<Gateway> {
  const rateLimits = await GraphQLRateLimits.open(config.graphqlRateLimits, databaseUrl);
  const identity = new IdentityClient(bus, config.sessionCacheMs);
  const liveSessions = new LiveSessions(
    async (token) => (await identity.resolveSession(token, { requestId: 'ws-session-check' }, false))?.user ?? null,
    config.wsSessionCheckMs,
    config.wsMaxSocketsPerMember,
  );
  identity.onSignedOut((tokenHash) => liveSessions.end(tokenHash));
  const live = new LiveHub();
  // A sign-out through any gateway ends the session here too: its cache entry goes and its WebSockets close.
  live.onSessionEnded((tokenHash) => {
    identity.forgetSession(tokenHash);
    liveSessions.end(tokenHash);
  });
  await live.start(bus);
  const chat = new ChatClient(bus, live);
  const stories = new StoryClient(bus);
  const media = new MediaClient(bus, live, storage, config.generationWaitMs, config.generationsPerAddressPerMinute);
  media.uploads.useSigningSecret(config.uploadSigningSecret);
  const access = new ContentAccess(config.publicWeb.ageVerificationRequired);
  const targets = new ModerationTargets(media, chat);
  const accountData = new AccountDataClient(bus, storage);
  const operator = new OperatorConsole(bus);
  const schema = buildGatewaySchema(live);
  const app = express();
  const server = http.createServer(httpServerOptions, app);
  limitConnections(server, config.connections);
  const pressure = new PressureMonitor(config.pressure);
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxyHops);

  app.use(httpMetrics());
  // With S3 the browser sends upload bytes straight to the bucket (decision 038).
  const uploadOrigin = storage instanceof S3Storage ? storage.browserOrigin : null;
  app.use(createSecurityHeaders({ connectSrc: [config.publicWeb.analytics?.endpoint, uploadOrigin] }));
  // Before load shedding, like the probes: an overloaded gateway is exactly when its metrics matter.
  app.get('/metrics', metricsEndpoint(metricsToken));
  app.get('/healthz', (_req, res) => void res.set('Cache-Control', 'no-store').json({ status: 'ok' }));
  // Not ready while shedding load, so a load balancer sends new traffic elsewhere.
  app.get('/readyz', async (_req, res) => {
    const overload = pressure.overloadReason();
    const ready = !overload && (await isReady().catch(() => false));
    res.set('Cache-Control', 'no-store').status(ready ? 200 : 503);
    res.json(ready ? { status: 'ok' } : { status: 'unavailable', ...(overload ? { reason: overload } : {}) });
  });
  app.use(pressure.middleware());
  app.use(bodyIdleTimeout(config.connections.bodyIdleTimeoutMs));
  app.use(requestContext(identity, config.trustProxyHops, config.executionTimeoutMs));
  app.use(sameOriginWrites);

  const isOperatorToken = (token: string | null) => {
    if (!config.operatorToken || !token) return false;
    const a = Buffer.from(token);
    const b = Buffer.from(config.operatorToken);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const websocket = serveGraphQLOverWebSocket({
    server,
    schema,
    services: { identity, chat, stories, media, live, access, targets, operator, accountData },
    liveSessions,
    pressure,
    trustProxyHops: config.trustProxyHops,
    maxSubscriptionsPerSocket: config.wsMaxSubscriptionsPerSocket,
    executionTimeoutMs: config.executionTimeoutMs,
  });

  const apollo = new ApolloServer<GatewayContext>({
    schema,
    introspection: config.introspection,
    // The process's own shutdown stops Apollo (close below); Apollo's signal handler would end the process before it flushes.
    stopOnTerminationSignals: false,
    persistedQueries: { cache: new PersistedDocumentStore(loadTrustedDocuments(config.webDist), config.apq), ttl: null },
    csrfPrevention: true,
    parseOptions: GRAPHQL_PARSE_OPTIONS,
    validationRules: queryLimitRules(),
    formatError: formatGraphQLError,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      ApolloServerPluginLandingPageDisabled(),
      graphqlMetricsPlugin(),
      {
        // A mutation may have changed the member's balance or profile: their cached session is read afresh.
        async requestDidStart() {
          return {
            // An access token runs only what its scopes allow.
            async didResolveOperation({ document, operationName, contextValue }) {
              try {
                assertOperationAllowed(document, operationName, contextValue.scopes);
              } catch (error) {
                throw asGraphQLError(error);
              }
            },
            async willSendResponse({ operation, contextValue }) {
              if (operation?.operation === 'mutation' && contextValue.user) identity.sessions.forgetMember(contextValue.user.id);
            },
          };
        },
      },
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await websocket.dispose();
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  app.use(
    '/graphql',
    rateLimits.middleware(),
    express.json({ limit: '100kb' }),
    expressMiddleware(apollo, {
      context: async ({ req, res }): Promise<GatewayContext> => {
        const state = req.state;
        const secure = config.secureCookies || req.secure;
        const bearer = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : null;
        const isOperator = isOperatorToken(bearer);
        const credential = isOperator ? null : await state.access();
        const user = credential?.user ?? null;
        return {
          user,
          scopes: credential?.scopes ?? null,
          isOperator,
          clientIp: state.clientIp,
          meta: { requestId: state.requestId, userId: user?.id, deadlineAt: state.deadlineAt },
          identity,
          chat,
          stories,
          media,
          live,
          access,
          targets,
          operator,
          accountData,
          session: {
            token: state.sessionToken,
            start: (token, expiresAt) => res.append('Set-Cookie', sessionCookie(token, expiresAt, secure)),
            end: () => res.append('Set-Cookie', clearedSessionCookie(secure)),
          },
        };
      },
    }),
  );
  app.use('/api', apiRouter({ identity, chat, stories, media, access, targets, accountData }, config.secureCookies));
  app.use(webAppRouter(config.webDist, config.publicWeb));
  app.use(finalErrorHandler);

  return {
    server,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          const address = server.address();
          const port = typeof address === 'object' && address ? address.port : config.port;
          const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
          logger.info({ url }, 'gateway listening');
          resolve({ port, url });
        });
      }),
    close: async () => {
      liveSessions.close();
      pressure.close();
      await apollo.stop();
      await operator.close();
      await live.stop();
      await rateLimits.close();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
