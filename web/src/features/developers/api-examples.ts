import { ACCESS_TOKENS, GRAPHQL_PATH } from './api-facts';

/**
 * The examples' code, for the site they are read on (`origin` is e.g. https://example.com). Code is never
 * translated. gateway/test/public-config.test.ts checks every operation against the schema and the gateway's query limits.
 */
export const EXAMPLE_OPERATIONS = {
  publicImages: '{ publicImages(first: 5) { nodes { id prompt imageUrl } pageInfo { endCursor hasNextPage } } }',
  startConversation: 'mutation Start($title: String) { createConversation(title: $title) { id title } }',
  nextImages: `query NextImages($after: String) {
  publicImages(first: 20, after: $after) {
    nodes { id prompt imageUrl }
    pageInfo { endCursor hasNextPage }
  }
}`,
  olderMessages: `query OlderMessages($conversationId: ID!, $before: String) {
  messages(conversationId: $conversationId, last: 30, before: $before) {
    edges { cursor node { id role content } }
    pageInfo { startCursor hasPreviousPage }
  }
}`,
  conversationUpdates: `subscription Updates($conversationId: ID!) {
      conversationUpdates(conversationId: $conversationId) {
        type messageId text message { id status content }
      }
    }`,
  sendMessage: `mutation Send($conversationId: ID!, $content: String!) {
      sendMessage(conversationId: $conversationId, content: $content) { assistantMessage { id } }
    }`,
} as const;

export function curlQueryExample(origin: string): string {
  const body = JSON.stringify({ query: EXAMPLE_OPERATIONS.publicImages });
  return `export API_TOKEN=${ACCESS_TOKENS.prefix}…

curl -s ${origin}${GRAPHQL_PATH} \\
  -H "Authorization: Bearer $API_TOKEN" \\
  -H 'Content-Type: application/json' \\
  -d '${body}'`;
}

export function curlMutationExample(origin: string): string {
  const body = JSON.stringify({ query: EXAMPLE_OPERATIONS.startConversation, variables: { title: 'From my script' } });
  return `curl -s ${origin}${GRAPHQL_PATH} \\
  -H "Authorization: Bearer $API_TOKEN" \\
  -H 'Content-Type: application/json' \\
  -d '${body}'`;
}

/** An ES module for Node 20+ (`npm install graphql-ws ws`); Node 20 has no WebSocket of its own. */
export function webSocketClientExample(origin: string): string {
  const webSocketOrigin = origin.replace(/^http/, 'ws');
  return `import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const token = process.env.API_TOKEN;

async function request(query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch('${origin}${GRAPHQL_PATH}', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: \`Bearer \${token}\` },
    body: JSON.stringify({ query, variables }),
  });
  const { data, errors } = await response.json();
  if (errors?.length) throw new Error(\`\${errors[0].extensions.code}: \${errors[0].message}\`);
  return data;
}

const client = createClient({
  url: '${webSocketOrigin}${GRAPHQL_PATH}',
  connectionParams: { authorization: \`Bearer \${token}\` },
  webSocketImpl: WebSocket,
});
const connected = new Promise((resolve) => client.on('connected', resolve));

const { createConversation } = await request('${EXAMPLE_OPERATIONS.startConversation}', { title: 'From my script' });
const conversationId: string = createConversation.id;

interface Update {
  type: 'TYPING' | 'DELTA' | 'MESSAGE' | 'DELETED';
  messageId: string | null;
  text: string | null;
  message: { id: string; status: string; content: string } | null;
}
const updates = client.iterate<{ conversationUpdates: Update }>({
  query: \`${EXAMPLE_OPERATIONS.conversationUpdates}\`,
  variables: { conversationId },
});
await connected;

const { sendMessage } = await request(
  \`${EXAMPLE_OPERATIONS.sendMessage}\`,
  { conversationId, content: 'Hello! Who are you?' },
);
const replyId: string = sendMessage.assistantMessage.id;

for await (const { data } of updates) {
  const update = data?.conversationUpdates;
  if (update?.type === 'DELTA' && update.messageId === replyId) process.stdout.write(update.text ?? '');
  if (update?.type === 'MESSAGE' && update.message?.id === replyId && update.message.status !== 'STREAMING') break;
}
await client.dispose();`;
}
