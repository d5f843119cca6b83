import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { collectProcessMetrics, graphqlOperationDuration, httpRequestDuration, isAuthorizedScrape, readMetrics } from '@app/kit';
import type { Request, RequestHandler } from 'express';

/** Names a client sends are free text: only identifier-like ones become label values, and only this many of them. */
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_OPERATION_NAMES = 200;
const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,39}$/;
/** A request the client gave up on before the answer was sent (nginx's convention). */
const CLIENT_CLOSED = '499';

/**
 * Times every HTTP request by method, route pattern and status. The route is the pattern Express matched
 * (`/api/chat/conversations/:id`), `/graphql`, `/api/unmatched`, or `static` (the web app): never a raw URL.
 */
export function httpMetrics(): RequestHandler {
  collectProcessMetrics();
  return (req, res, next) => {
    const end = httpRequestDuration.startTimer();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      end({ method: req.method, route: routeOf(req), status_code: res.writableFinished ? String(res.statusCode) : CLIENT_CLOSED });
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}

function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return `${req.baseUrl}${pattern}`;
  const path = req.originalUrl.split('?')[0]!;
  if (path === '/graphql') return '/graphql';
  if (path === '/api' || path.startsWith('/api/')) return '/api/unmatched';
  return 'static';
}

/**
 * `GET /metrics`: the whole process's series (in the embedded mode, the services' too). Unset token: 404, as for
 * any unknown path; set: only `Authorization: Bearer <METRICS_TOKEN>` reads them, anyone else gets 401.
 */
export function metricsEndpoint(token: string | null): RequestHandler {
  return async (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (!token) return void res.status(404).type('text/plain').send('Not found');
    if (!isAuthorizedScrape(req.headers.authorization, token)) {
      return void res.status(401).set('WWW-Authenticate', 'Bearer').type('text/plain').send('Unauthorized');
    }
    const { contentType, body } = await readMetrics();
    res.set('Content-Type', contentType).send(body);
  };
}

/** Times each GraphQL operation over HTTP by name, type and outcome (`ok`, or its first error's code in lower case). */
export function graphqlMetricsPlugin(): ApolloServerPlugin<BaseContext> {
  const names = new Set<string>();
  const nameLabel = (name: string | null | undefined) => {
    if (!name) return 'anonymous';
    if (!OPERATION_NAME.test(name)) return 'other';
    if (!names.has(name) && names.size >= MAX_OPERATION_NAMES) return 'other';
    names.add(name);
    return name;
  };
  return {
    async requestDidStart() {
      const end = graphqlOperationDuration.startTimer();
      return {
        async willSendResponse({ operation, operationName, response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          const code = errors?.[0]?.extensions?.code;
          end({
            operation_name: nameLabel(operation?.name?.value ?? operationName),
            operation_type: operation?.operation ?? 'unknown',
            outcome: !errors?.length ? 'ok' : typeof code === 'string' && ERROR_CODE.test(code) ? code.toLowerCase() : 'error',
          });
        },
      };
    },
  };
}
