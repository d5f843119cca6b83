import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { logger, runWithRequestContext, websocketConnections } from '@app/kit';
import { type ExecutionArgs, type GraphQLSchema, GraphQLError, execute, getOperationAST, subscribe } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { clientIp } from '../http/client-ip';
import { readSessionToken } from '../http/cookies';
import type { PressureMonitor } from '../http/load-shedding';
import { isSameOrigin, requestOrigin } from '../http/security-headers';
import type { LiveSessions } from '../live-sessions';
import type { GatewayContext } from './context';
import { formatGraphQLError } from './errors';
import { parseAndValidate } from './query-limits';
import { assertOperationAllowed } from '../access/token-scopes';
import { asGraphQLError } from './errors';

export const WS_PATH = '/graphql';
/** Past this, a message is refused by `ws` (a subscription document and its variables are far smaller). */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** graphql-ws's "too many" close code; its client does not retry it. */
export const TOO_MANY_CLOSE_CODE = 4429;
const tooManyOperations = [new GraphQLError('Too many operations open on one connection.', { extensions: { code: 'RATE_LIMITED' } })];

export interface WebSocketOptions {
  server: http.Server;
  schema: GraphQLSchema;
  services: Pick<GatewayContext, 'identity' | 'chat' | 'stories' | 'media' | 'live' | 'access' | 'targets' | 'operator' | 'accountData'>;
  liveSessions: LiveSessions;
  pressure: PressureMonitor;
  trustProxyHops: number;
  maxSubscriptionsPerSocket: number;
  executionTimeoutMs: number;
}

/**
 * GraphQL over WebSocket (graphql-ws) with the same rules as HTTP: the document limits, error codes,
 * same-origin check, load shedding at the upgrade, and bounded subscriptions per socket and per member.
 */
export function serveGraphQLOverWebSocket(options: WebSocketOptions): { dispose(): Promise<void> } {
  const { server, schema, services, liveSessions, pressure } = options;
  const wsServer = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const onUpgrade = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://gateway').pathname !== WS_PATH) return socket.destroy();
    if (pressure.overloadReason()) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wsServer.handleUpgrade(request, socket, head, (ws) => wsServer.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);
  wsServer.on('connection', (socket) => {
    websocketConnections.inc();
    socket.once('close', () => websocketConnections.dec());
  });

  const cleanup = useServer<Record<string, unknown>, { context?: GatewayContext }>(
    {
      schema,
      onConnect: async (ctx) => {
        const request = ctx.extra.request;
        // Browsers send Origin on WebSocket upgrades; another site's page must not ride the member's cookie.
        const origin = request.headers.origin;
        if (origin && !isSameOrigin(origin, requestOrigin(request, options.trustProxyHops))) return false;
        const bearer = typeof ctx.connectionParams?.authorization === 'string' ? ctx.connectionParams.authorization : null;
        const token = bearer?.startsWith('Bearer ') ? bearer.slice(7) : readSessionToken(request.headers);
        const meta = { requestId: `ws-${Date.now().toString(36)}` };
        const access = await services.identity.resolveSession(token, meta).catch(() => null);
        const user = access?.user ?? null;
        const socket = ctx.extra.socket;
        // A socket that closed while its session was being checked has nothing left to track.
        if (user && token && socket.readyState === socket.OPEN && !liveSessions.add(token, user.id, socket)) {
          socket.close(TOO_MANY_CLOSE_CODE, 'Too many open connections for this account');
          return false;
        }
        ctx.extra.context = {
          ...services,
          user,
          scopes: access?.scopes ?? null,
          isOperator: false,
          clientIp: clientIp(request, options.trustProxyHops),
          meta: { ...meta, userId: user?.id },
          session: { token, start: () => undefined, end: () => undefined },
        };
        return true;
      },
      onSubscribe: (ctx, _id, payload) => {
        // The operation being subscribed is already in ctx.subscriptions. Past the limit the client is flooding:
        // the socket closes, so the messages still queued on it cost next to nothing.
        if (Object.keys(ctx.subscriptions).length > options.maxSubscriptionsPerSocket) {
          if (ctx.extra.socket.readyState === ctx.extra.socket.OPEN) {
            ctx.extra.socket.close(
              TOO_MANY_CLOSE_CODE,
              `Too many operations open on one connection (the limit is ${options.maxSubscriptionsPerSocket})`,
            );
          }
          return tooManyOperations;
        }
        const checked = parseAndValidate(schema, payload.query);
        if (checked.errors) return checked.errors;
        try {
          assertOperationAllowed(checked.document, payload.operationName, ctx.extra.context?.scopes ?? null);
        } catch (error) {
          return [asGraphQLError(error)];
        }
        return { schema, document: checked.document, variableValues: payload.variables, operationName: payload.operationName };
      },
      context: (ctx, _id, _payload, args) => {
        const connection = ctx.extra.context!;
        // A subscription lives as long as the member wants; queries and mutations get the HTTP deadline.
        const isSubscription = getOperationAST(args.document, args.operationName)?.operation === 'subscription';
        const deadlineAt = isSubscription ? undefined : Date.now() + options.executionTimeoutMs;
        return { ...connection, meta: { ...connection.meta, deadlineAt } } satisfies GatewayContext;
      },
      // Each operation's log lines carry the connection's request id and member, as an HTTP request's do.
      execute: (args) => runWithRequestContext(logContextOf(args), () => execute(args)),
      subscribe: (args) => runWithRequestContext(logContextOf(args), () => subscribe(args)),
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!result.errors) return;
        return { ...result, errors: result.errors.map((error) => formatGraphQLError(error.toJSON(), error)) };
      },
      onError: (_ctx, _id, _payload, errors) => {
        logger.info({ errors: errors.map((error) => error.message) }, 'subscription refused');
        return errors.map((error) => formatGraphQLError(error.toJSON(), error));
      },
    },
    wsServer,
  );

  return {
    dispose: async () => {
      server.off('upgrade', onUpgrade);
      await cleanup.dispose();
    },
  };
}

function logContextOf(args: ExecutionArgs) {
  const { meta } = args.contextValue as GatewayContext;
  return { requestId: meta.requestId, userId: meta.userId };
}
