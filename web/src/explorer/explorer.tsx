import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { buildSchema } from 'graphql';
import schemaSource from '../../../schema/schema.graphql?raw';

// Nothing is imported from the app: its modules share the app shell's chunk, which would bring the UI kit along.
const GRAPHQL_PATH = '/graphql';
const WEBSOCKET_URL = `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}${GRAPHQL_PATH}`;
/** The gateway's public settings (/app-config.js): the Developers page may be turned off. */
const hasApiDocs = window.__APP_CONFIG__?.apiDocs !== false;

/**
 * The schema this build was made with, which is the one the gateway serves (a test keeps the file current):
 * the gateway's query limits refuse the standard introspection query (it nests deeper than 12), and
 * GRAPHQL_INTROSPECTION may be off.
 */
const schema = buildSchema(schemaSource);

/**
 * Same origin, so a signed-in member's session cookie goes along on HTTP and on the WebSocket upgrade; a token
 * pasted in the Headers editor goes in the HTTP headers and, as graphql-ws connection parameters, on the socket.
 */
const fetcher = createGraphiQLFetcher({ url: GRAPHQL_PATH, subscriptionUrl: WEBSOCKET_URL });

const DEFAULT_QUERY = `# Signed in on this site, queries run as you; signed out, most answer UNAUTHENTICATED.
# To run them as a personal access token (with only its scopes), put it in Headers below:
#   { "authorization": "Bearer cpat_…" }
# The Docs pane (top left) shows every type and field.

query PublicImages($after: String) {
  publicImages(first: 5, after: $after) {
    nodes {
      id
      prompt
      imageUrl
    }
    pageInfo {
      endCursor
      hasNextPage
    }
  }
}
`;

const TITLE = 'GraphQL explorer';

/**
 * GraphiQL against this site's API; its title leads back to the documentation when there is one. Headers stay
 * out of the browser's storage (GraphiQL's shouldPersistHeaders is off), so a pasted token is gone after a reload.
 */
export function Explorer() {
  return (
    <GraphiQL fetcher={fetcher} schema={schema} defaultQuery={DEFAULT_QUERY} defaultTheme="dark">
      <GraphiQL.Logo>
        {hasApiDocs ? (
          <a className="explorer-home" href="/developers">
            {TITLE}
          </a>
        ) : (
          TITLE
        )}
      </GraphiQL.Logo>
    </GraphiQL>
  );
}
