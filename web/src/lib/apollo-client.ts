import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { ErrorLink } from '@apollo/client/link/error';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { OperationTypeNode } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { relayStylePagination } from '@apollo/client/utilities';
import type { FieldPolicy } from '@apollo/client';
import { MeDocument } from '../auth/auth-operations';
import { handleUnauthorized } from './error-toasts';
import { isUnauthenticatedError } from './graphql-errors';
import { sha256Hex } from './sha256';

export const GRAPHQL_PATH = '/graphql';

/**
 * A `{ nodes, endCursor, hasNextPage }` list paged forwards with `after`: the first page replaces
 * what was cached, each next one is appended (the moderation queue and audit log).
 */
function nodesPagination(keyArgs: FieldPolicy['keyArgs']): FieldPolicy<{ nodes: readonly unknown[] }> {
  return {
    keyArgs,
    merge(existing, incoming, { args }) {
      if (!existing || !args?.['after']) return incoming;
      return { ...incoming, nodes: [...existing.nodes, ...incoming.nodes] };
    },
  };
}

/** Operations whose UNAUTHENTICATED answer is normal (signing in or out), not a lost session. */
const AUTH_OPERATIONS = new Set(['Me', 'Login', 'Register', 'Logout']);

export function graphqlWsUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${location.host}${GRAPHQL_PATH}`;
}

export interface AppApollo {
  client: ApolloClient;
  /** Ends this client: closes its socket and drops everything cached (the session it belonged to is over). */
  dispose: () => void;
}

/**
 * One client per session (auth/member-session.tsx): subscriptions go over one graphql-ws socket,
 * whose session cookie is read when it opens, so a new session gets a new client and socket.
 */
export function createApolloClient(): AppApollo {
  const httpLink = new HttpLink({
    uri: GRAPHQL_PATH,
    credentials: 'same-origin',
  });
  const wsClient: Client = createClient({
    url: graphqlWsUrl(),
    // Connect only while a subscription is active; the browser sends the session cookie on connect.
    lazy: true,
    retryAttempts: 5,
  });
  const wsLink = new GraphQLWsLink(wsClient);

  const unauthorizedLink = new ErrorLink(({ error, operation }) => {
    if (!isUnauthenticatedError(error)) return;
    if (AUTH_OPERATIONS.has(operation.operationName ?? '')) return;
    // Only a member who was signed in can lose the session; signed-out screens ignore it.
    const cached = operation.client.cache.readQuery({ query: MeDocument });
    if (cached?.me) handleUnauthorized();
  });

  // Queries and mutations go by hash (the gateway knows the app's documents: web/public/trusted-documents.json);
  // without Web Crypto (plain HTTP on another host than localhost) they go in full.
  const hashedHttpLink = globalThis.crypto?.subtle ? new PersistedQueryLink({ sha256: sha256Hex }).concat(httpLink) : httpLink;
  const transportLink = ApolloLink.split(({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION, wsLink, hashedHttpLink);

  const client = new ApolloClient({
    link: ApolloLink.from([unauthorizedLink, transportLink]),
    cache: new InMemoryCache({
      typePolicies: {
        // Spec §3: a missing balance counts as 0.
        User: {
          fields: { tokens: { read: (tokens?: number) => tokens ?? 0 } },
        },
        Query: {
          fields: {
            // Image lists page forwards (`after: pageInfo.endCursor`): each search keeps one list, pages appended.
            myImages: relayStylePagination(['search', 'order']),
            publicImages: relayStylePagination(['search', 'order']),
            moderationQueue: nodesPagination(['status']),
            moderationAuditLog: nodesPagination(false),
          },
        },
        // A case's snapshot and its current item share the item's id: they must stay two objects.
        ModerationTarget: { keyFields: false },
        TakedownRequester: { keyFields: false },
        RatingPreferences: { merge: true },
        AgeAssurance: { merge: true },
        // Parts of an image without an id of their own: the newest copy simply replaces the old one.
        ImageSettings: { merge: true },
        ImageCreator: { merge: true },
        DashboardStats: { keyFields: false },
        QuotaUsage: { keyFields: false },
        TokenBalanceChange: { keyFields: false },
      },
    }),
    // Spec §9: data is never stale and nothing refetches on its own (no polling, no focus or
    // reconnect refetch: no RefetchEventManager is configured), and nothing is retried.
    defaultOptions: {
      watchQuery: { fetchPolicy: 'cache-first' },
      query: { fetchPolicy: 'cache-first' },
    },
  });

  return {
    client,
    dispose: () => {
      client.stop();
      void client.clearStore().catch(() => undefined);
      void wsClient.dispose();
    },
  };
}
