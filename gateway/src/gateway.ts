import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { type Bus, type ObjectStorage, healthHandler, logger, openObjectStorage, readInfraConfig } from '@app/kit';
import { AppError } from '@app/schema';
import express from 'express';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { type GatewayConfig, readGatewayConfig } from './gateway.config';
import { type GatewayContext } from './graphql/context';
import { depthLimit, formatGraphQLError } from './graphql/errors';
import { buildGatewaySchema } from './graphql/schema';
import { clientIp } from './http/client-ip';
import { clearedSessionCookie, readSessionToken, sessionCookie } from './http/cookies';
import { requestContext } from './http/request-context';
import { createSecurityHeaders, isSameOrigin, sameOriginWrites } from './http/security-headers';
import { shedLoad } from './http/load-shedding';
import { webAppRouter } from './http/web-app';
import { ChatClient } from './chat-client';
import { IdentityClient } from './identity-client';
import { LiveHub } from './live-hub';
import { LiveSessions } from './live-sessions';
import { MediaClient } from './media-client';
import { apiRouter } from './rest/api.router';
import { sendError } from './rest/send-error';

const MAX_QUERY_DEPTH = 12;

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
  /** Where the media service keeps image files (read only here); by default opened from DATA_DIR / S3_* settings. */
  storage?: ObjectStorage;
}

/** The public edge: GraphQL over HTTP and WebSocket, the compatible REST API, health, and the web app. */
export async function createGateway({
  bus,
  config = readGatewayConfig(),
  isReady = () => bus.isReady(),
  storage = openObjectStorage(readInfraConfig(), process.env),
}: GatewayOptions): Promise<Gateway> {
  const identity = new IdentityClient(bus);
  const liveSessions = new LiveSessions(
    (token) => identity.resolveSession(token, { requestId: 'ws-session-check' }, false),
    config.wsSessionCheckMs,
  );
  identity.onSignedOut((token) => liveSessions.end(token));
  const live = new LiveHub();
  await live.start(bus);
  const chat = new ChatClient(bus, live);
  const media = new MediaClient(bus, live, storage, config.generationWaitMs, config.generationsPerAddressPerMinute);
  const schema = buildGatewaySchema(live);
  const app = express();
  const server = http.createServer(app);
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxyHops);

  const health = healthHandler(isReady);
  app.get(['/healthz', '/readyz'], (req, res) => void health(req, res));
  app.use(createSecurityHeaders({ connectSrc: [config.publicWeb.analytics?.endpoint] }));
  app.use(shedLoad(config.maxInFlight));
  app.use(requestContext(identity, config.trustProxyHops));
  app.use(sameOriginWrites);

  const isOperatorToken = (token: string | null) => {
    if (!config.operatorToken || !token) return false;
    const a = Buffer.from(token);
    const b = Buffer.from(config.operatorToken);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const wsServer = new WebSocketServer({ server, path: '/graphql', maxPayload: 64 * 1024 });
  const wsCleanup = useServer<Record<string, unknown>, { context?: GatewayContext }>(
    {
      schema,
      onConnect: async (ctx) => {
        const request = ctx.extra.request;
        // Browsers send Origin on WebSocket upgrades; another site's page must not ride the member's cookie.
        if (request.headers.origin && !isSameOrigin(request.headers.origin, request.headers.host)) return false;
        const bearer = typeof ctx.connectionParams?.authorization === 'string' ? ctx.connectionParams.authorization : null;
        const token = bearer?.startsWith('Bearer ') ? bearer.slice(7) : readSessionToken(request.headers);
        const meta = { requestId: `ws-${Date.now().toString(36)}` };
        const user = await identity.resolveSession(token, meta).catch(() => null);
        // A socket that closed while its session was being checked has nothing left to track.
        if (user && token && ctx.extra.socket.readyState === ctx.extra.socket.OPEN) liveSessions.add(token, user.id, ctx.extra.socket);
        ctx.extra.context = {
          user,
          isOperator: false,
          clientIp: clientIp(request, config.trustProxyHops),
          meta: { ...meta, userId: user?.id },
          identity,
          chat,
          media,
          live,
          session: { token, start: () => undefined, end: () => undefined },
        };
        return true;
      },
      context: (ctx) => ctx.extra.context!,
      onError: (_ctx, _id, _payload, errors) => {
        logger.info({ errors: errors.map((error) => error.message) }, 'subscription refused');
      },
    },
    wsServer,
  );

  const apollo = new ApolloServer<GatewayContext>({
    schema,
    introspection: config.introspection,
    csrfPrevention: true,
    validationRules: [depthLimit(MAX_QUERY_DEPTH)],
    formatError: formatGraphQLError,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      ApolloServerPluginLandingPageDisabled(),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await wsCleanup.dispose();
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    expressMiddleware(apollo, {
      context: async ({ req, res }): Promise<GatewayContext> => {
        const state = req.state;
        const secure = config.secureCookies || req.secure;
        const bearer = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : null;
        const isOperator = isOperatorToken(bearer);
        const user = isOperator ? null : await state.user();
        return {
          user,
          isOperator,
          clientIp: state.clientIp,
          meta: { requestId: state.requestId, userId: user?.id },
          identity,
          chat,
          media,
          live,
          session: {
            token: state.sessionToken,
            start: (token, expiresAt) => res.append('Set-Cookie', sessionCookie(token, expiresAt, secure)),
            end: () => res.append('Set-Cookie', clearedSessionCookie(secure)),
          },
        };
      },
    }),
  );
  app.use('/api', apiRouter(identity, chat, media, config.secureCookies));
  app.use(webAppRouter(config.webDist, config.publicWeb));
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = (error as { status?: number }).status;
    if (status === 404) return sendError(res, new AppError('NOT_FOUND', 'Not found'));
    // Body parsers (GraphQL JSON, card uploads) report oversized and malformed bodies with a status.
    if (status === 413) return sendError(res, new AppError('PAYLOAD_TOO_LARGE', 'Request body too large'));
    if (status === 400) return sendError(res, new AppError('VALIDATION_FAILED', 'Malformed request body'));
    sendError(res, error);
  });

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
      await apollo.stop();
      await live.stop();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
