/**
 * A sample third-party client of the GraphQL API. With a personal access token (scopes READ and CHAT) it
 * prints the first page of public images, then sends a message to a character and prints the reply as it streams.
 *
 *   API_URL=http://localhost:3000 API_TOKEN=cpat_… node -r @swc-node/register docs/examples/third-party-client/client.ts
 *
 * Queries and mutations go over HTTP with fetch; the reply streams over a graphql-ws subscription. Every operation is
 * in operations.graphql, typed by codegen from schema/schema.graphql into gql/.
 */
import { type Client, type FormattedExecutionResult, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import {
  type ConversationUpdatesSubscription,
  type ReplyMessageFragment,
  type TypedDocumentString,
  CharactersDocument,
  ConversationUpdatesDocument,
  CreateCharacterDocument,
  MessageDocument,
  PublicImagesDocument,
  SendMessageDocument,
  StartConversationDocument,
  ViewerDocument,
} from './gql/graphql';

export interface Environment {
  /** Where the product runs, e.g. http://localhost:3000. */
  API_URL?: string;
  /** A personal access token, cpat_… */
  API_TOKEN?: string;
  /** What to say to the character. */
  CHAT_MESSAGE?: string;
}

interface Writer {
  write(text: string): unknown;
}
export interface Output {
  stdout: Writer;
  stderr: Writer;
}

const IMAGES_PER_PAGE = 10;
const DEFAULT_MESSAGE = 'Hello! Who are you?';
/** Live updates can be lost (a dropped socket, a restarted gateway): past this, the reply is read back instead. */
const REPLY_TIMEOUT_MS = 120_000;

/** An error the API answered; `code` is its `extensions.code` (see the README's Errors table). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

interface GraphQLResponse<TResult> {
  data?: TResult | null;
  errors?: readonly { message: string; extensions?: { code?: unknown } }[];
}

const toApiError = (error: { message: string; extensions?: { code?: unknown } }) =>
  new ApiError(error.message, typeof error.extensions?.code === 'string' ? error.extensions.code : 'UNKNOWN');

/** Queries and mutations over HTTP, authenticated by the token. */
class Api {
  constructor(
    readonly url: URL,
    private readonly token: string,
  ) {}

  async request<TResult, TVariables>(document: TypedDocumentString<TResult, TVariables>, variables: TVariables): Promise<TResult> {
    const response = await fetch(new URL('/graphql', this.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      body: JSON.stringify({ query: document.toString(), variables }),
    });
    // GraphQL errors come with 200 or, for refusals before anything runs (scope, limits), with 4xx: read the body either way.
    const body = (await response.json().catch(() => null)) as GraphQLResponse<TResult> | null;
    if (body?.errors?.length) throw toApiError(body.errors[0]!);
    if (!response.ok || !body?.data) throw new ApiError(`The API answered HTTP ${response.status} without data`, `HTTP_${response.status}`);
    return body.data;
  }

  /** A graphql-ws client: the token goes in connectionParams, as browsers' cookies cannot be sent from here. */
  subscriptions(): Client {
    const url = new URL('/graphql', this.url);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return createClient({
      url: url.toString(),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${this.token}` },
      // A dropped socket ends the run with an error rather than resubscribing after updates were lost.
      retryAttempts: 0,
    });
  }
}

/** Why a subscription failed: graphql-ws reports GraphQL errors as an array and a closed socket as its close event. */
function subscriptionError(error: unknown): Error {
  if (Array.isArray(error) && error.length > 0) return toApiError(error[0] as { message: string });
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'number') {
    // The product closes a token's sockets with 4401 when the token is revoked or its member suspended.
    if (error.code === 4401) return new ApiError('The WebSocket was closed: the token is no longer valid', 'UNAUTHENTICATED');
    return new Error(`The WebSocket closed with code ${error.code}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function printPublicImages(api: Api, out: Writer) {
  const { publicImages } = await api.request(PublicImagesDocument, { first: IMAGES_PER_PAGE });
  if (publicImages.nodes.length === 0) {
    out.write('No public images yet.\n');
    return;
  }
  out.write('Public images, newest first:\n');
  for (const image of publicImages.nodes) {
    const creator = [image.user?.firstName, image.user?.lastName].filter(Boolean).join(' ') || 'a member';
    // imageUrl is a path on the API's host (or a full URL with object storage).
    out.write(`  ${image.prompt} (by ${creator}, ${image.width}×${image.height})\n    ${new URL(image.imageUrl, api.url)}\n`);
  }
  if (publicImages.pageInfo.hasNextPage) out.write(`  More: ask again with after: "${publicImages.pageInfo.endCursor}"\n`);
}

/** The newest public character, else the member's newest own one, else a new private one (the free plan creates 2 a month). */
async function characterToChatWith(api: Api) {
  const { publicCharacters, characters } = await api.request(CharactersDocument, { first: 1 });
  const existing = publicCharacters.nodes[0] ?? characters.nodes[0];
  if (existing) return existing;
  const { createCharacter } = await api.request(CreateCharacterDocument, {
    input: { name: 'Sample Guide', description: 'A patient guide to the platform', personalityTraits: ['friendly'], rating: 'SAFE' },
  });
  return createCharacter;
}

/** Writes a reply as its deltas arrive; text it missed (sent before the subscription started, or lost) comes from the final message. */
class ReplyPrinter {
  private printed = '';

  constructor(private readonly out: Writer) {}

  /** `text` starts at `offset` in the reply: print what carries on from the text printed so far; after a gap, wait for the end. */
  delta(offset: number, text: string) {
    if (offset > this.printed.length) return;
    const fresh = text.slice(this.printed.length - offset);
    if (!fresh) return;
    this.printed += fresh;
    this.out.write(fresh);
  }

  finish(content: string) {
    // A reply can also be rewritten at the end (a model reply that crosses a content line is erased): show it as stored.
    this.out.write(content.startsWith(this.printed) ? `${content.slice(this.printed.length)}\n` : `\n[as stored:] ${content}\n`);
  }
}

/** Follows the reply `replyId` until it is no longer streaming, printing its deltas; answers the reply as it ended. */
async function followReply(
  api: Api,
  updates: AsyncIterableIterator<FormattedExecutionResult<ConversationUpdatesSubscription, unknown>>,
  replyId: string,
  printer: ReplyPrinter,
): Promise<ReplyMessageFragment> {
  const timeout = new Error('timeout');
  const deadline = setTimeout(() => void updates.throw?.(timeout), REPLY_TIMEOUT_MS);
  try {
    for await (const result of updates) {
      if (result.errors?.length) throw toApiError(result.errors[0]!);
      const update = result.data?.conversationUpdates;
      if (update?.type === 'DELTA' && update.messageId === replyId && update.offset != null && update.text != null) {
        printer.delta(update.offset, update.text);
      } else if (update?.type === 'MESSAGE' && update.message?.id === replyId && update.message.status !== 'STREAMING') {
        return update.message;
      } else if (update?.type === 'TYPING' && update.typing === false) {
        break; // Always ends a reply: its final MESSAGE was missed, so read it back below.
      } else if (update?.type === 'DELETED') {
        throw new Error('The conversation was deleted while the reply was being written.');
      }
    }
  } catch (error) {
    if (error !== timeout) throw subscriptionError(error);
  } finally {
    clearTimeout(deadline);
  }
  return (await api.request(MessageDocument, { id: replyId })).message;
}

async function chat(api: Api, content: string, out: Writer): Promise<ReplyMessageFragment> {
  const character = await characterToChatWith(api);
  const { createConversation: conversation } = await api.request(StartConversationDocument, {
    characterId: character.id,
    title: 'From the sample client',
  });
  out.write(`\nChatting with ${character.name} (conversation ${conversation.id})\n> ${content}\n`);

  const subscriptions = api.subscriptions();
  try {
    const connected = new Promise<void>((resolve, reject) => {
      subscriptions.on('connected', () => resolve());
      subscriptions.on('closed', (event) => reject(subscriptionError(event)));
    });
    // Subscribe first, then send, so no update falls in between; updates wait in the iterator until they are read.
    const updates = subscriptions.iterate<ConversationUpdatesSubscription>({
      query: ConversationUpdatesDocument.toString(),
      variables: { conversationId: conversation.id },
    });
    await connected;
    const { sendMessage } = await api.request(SendMessageDocument, { conversationId: conversation.id, content });
    const printer = new ReplyPrinter(out);
    const reply = await followReply(api, updates, sendMessage.assistantMessage.id, printer);
    printer.finish(reply.content);
    return reply;
  } finally {
    await subscriptions.dispose();
  }
}

/** Runs the sample against `env`; answers the exit code (0 done, 1 the API refused or failed, 2 a setting is missing). */
export async function main(env: Environment, output: Output): Promise<number> {
  const { stdout, stderr } = output;
  if (!env.API_URL || !env.API_TOKEN) {
    stderr.write('Set API_URL (e.g. http://localhost:3000) and API_TOKEN (a personal access token, cpat_…).\n');
    return 2;
  }
  if (!URL.canParse(env.API_URL)) {
    stderr.write(`API_URL is not a URL: ${env.API_URL}\n`);
    return 2;
  }
  const api = new Api(new URL(env.API_URL), env.API_TOKEN);
  try {
    const { me, myQuotas } = await api.request(ViewerDocument, {});
    const chatQuota = myQuotas.find((quota) => quota.kind === 'CHAT');
    stdout.write(`Signed in as ${me?.email}: ${me?.tokens} tokens, ${chatQuota?.used}/${chatQuota?.limit} chat messages this month\n\n`);

    await printPublicImages(api, stdout);
    const reply = await chat(api, env.CHAT_MESSAGE || DEFAULT_MESSAGE, stdout);
    if (reply.status === 'STREAMING') {
      stderr.write(`The reply was still being written after ${REPLY_TIMEOUT_MS / 1000} s.\n`);
      return 1;
    }
    if (reply.status !== 'COMPLETE') {
      stderr.write(`The reply ended ${reply.status}${reply.errorCode ? ` (${reply.errorCode})` : ''}.\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof ApiError) stderr.write(`The API refused: ${error.code}: ${error.message}\n`);
    // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND, a certificate).
    else if (error instanceof TypeError && error.cause instanceof Error) stderr.write(`Cannot reach ${api.url}: ${error.cause.message}\n`);
    else stderr.write(`Failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (require.main === module) {
  void main(process.env, process).then((code) => {
    process.exitCode = code;
  });
}
