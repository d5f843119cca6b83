import { AppError, type ChatProviderInfo, ConversationTitle, MessageContent } from '@app/schema';
import { z } from 'zod';
import { decodeCursor } from '../graphql/chat.mappers';
import { LIVE_TOPICS } from '../live-hub';
import { type Caller, type LiveServices, type Services, member } from '../operations/caller';
import { type RawInput, RelayWindow, foundId, pageSize, parseInput } from '../operations/input';

const CONVERSATION_NOT_FOUND = 'Conversation not found';
const MESSAGE_NOT_FOUND = 'Message not found';

const NewConversation = z.object({ title: ConversationTitle.nullish() });
/** No title (a PATCH that names none) leaves the conversation as it is. */
const ConversationRename = z.object({ title: ConversationTitle.optional() });
const NewMessage = z.object({ content: MessageContent });
/** GraphQL pages back by cursor (`last`, 30 by default in the SDL); REST by message seq (`limit`). */
const MessagesWindow = z.object({
  last: pageSize('last').optional(),
  limit: pageSize('limit').optional(),
  before: z.string().nullish(),
  beforeSeq: z.number({ error: 'before must be a message seq' }).int('before must be a message seq').nullish(),
});
const SwipeChoice = z.object({ index: z.number().int().min(0, 'index must be 0 or more') });

/** The conversation a message is sent to; GraphQL lets a client send none, which is the member's mistake, not a lookup. */
function targetConversation(conversationId: string | null | undefined): string {
  if (!conversationId) throw new AppError('VALIDATION_FAILED', 'No conversation selected');
  return foundId(conversationId, CONVERSATION_NOT_FOUND);
}

export const listConversations = async (services: Services, caller: Caller, window: RelayWindow) =>
  services.chat.listConversations(member(caller).id, parseInput(RelayWindow, { ...window }), caller.meta);

/** The compatible list: the most recently active conversations, as one array. */
export const listRecentConversations = async (services: Services, caller: Caller) =>
  services.chat.listRecentConversations(member(caller).id, caller.meta);

export const getConversation = async (services: Services, caller: Caller, id: string) =>
  services.chat.getConversation(member(caller).id, foundId(id, CONVERSATION_NOT_FOUND), caller.meta);

export async function createConversation(services: Services, caller: Caller, input: { title?: unknown; characterId?: string | null }) {
  const user = member(caller);
  const { title } = parseInput(NewConversation, { title: input.title });
  const characterId = input.characterId ? foundId(input.characterId, 'Character not found') : null;
  return services.chat.createConversation(user.id, title, characterId, services.access.ratingsFor(user), caller.meta);
}

export async function renameConversation(services: Services, caller: Caller, id: string, input: { title?: unknown }) {
  const user = member(caller);
  const conversationId = foundId(id, CONVERSATION_NOT_FOUND);
  return services.chat.renameConversation(
    user.id,
    conversationId,
    parseInput(ConversationRename, { title: input.title }).title,
    caller.meta,
  );
}

export async function deleteConversation(services: Services, caller: Caller, id: string): Promise<string> {
  await services.chat.deleteConversation(member(caller).id, foundId(id, CONVERSATION_NOT_FOUND), caller.meta);
  return id;
}

/** A page of messages, oldest first; `hasNewer` when the page ends before the newest (a `before` was given). */
export async function listMessages(services: Services, caller: Caller, conversationId: string, window: RawInput<typeof MessagesWindow>) {
  const user = member(caller);
  const id = foundId(conversationId, CONVERSATION_NOT_FOUND);
  const { last, limit, before, beforeSeq: seq } = parseInput(MessagesWindow, window);
  const beforeSeq = before ? decodeCursor(before) : (seq ?? null);
  if (before && beforeSeq === null) throw new AppError('VALIDATION_FAILED', 'Invalid cursor');
  const page = await services.chat.listMessages(user.id, id, limit ?? last ?? 30, beforeSeq, caller.meta);
  return { ...page, hasNewer: beforeSeq !== null };
}

export const getMessage = async (services: Services, caller: Caller, id: string) =>
  services.chat.getMessage(member(caller).id, foundId(id, MESSAGE_NOT_FOUND), caller.meta);

/** Stores the message and starts the reply, which streams to subscribers. */
export async function sendMessage(services: Services, caller: Caller, conversationId: string | null | undefined, content: unknown) {
  const user = member(caller);
  const id = targetConversation(conversationId);
  return services.chat.sendMessage(user.id, id, parseInput(NewMessage, { content }).content, caller.meta);
}

/** The compatible call: sends and answers once the reply has finished. */
export async function sendMessageAndWait(services: Services, caller: Caller, conversationId: string, content: unknown) {
  const user = member(caller);
  const id = targetConversation(conversationId);
  return services.chat.sendAndWait(user.id, id, parseInput(NewMessage, { content }).content, caller.meta);
}

/** Another version of a reply (the last one shown when no message is named), beside it. */
export async function regenerateReply(services: Services, caller: Caller, conversationId: string, messageId?: string | null) {
  const user = member(caller);
  const id = foundId(conversationId, CONVERSATION_NOT_FOUND);
  return services.chat.regenerateReply(user.id, id, messageId ? foundId(messageId, MESSAGE_NOT_FOUND) : null, caller.meta);
}

/** A new version of a message beside the original; a member's message edited is answered again. */
export async function editMessage(services: Services, caller: Caller, messageId: string, content: unknown) {
  const user = member(caller);
  const id = foundId(messageId, MESSAGE_NOT_FOUND);
  return services.chat.editMessage(user.id, id, parseInput(NewMessage, { content }).content, caller.meta);
}

export const deleteMessage = async (services: Services, caller: Caller, messageId: string) =>
  services.chat.deleteMessage(member(caller).id, foundId(messageId, MESSAGE_NOT_FOUND), caller.meta);

export const continueReply = async (services: Services, caller: Caller, messageId: string) =>
  services.chat.continueReply(member(caller).id, foundId(messageId, MESSAGE_NOT_FOUND), caller.meta);

/** `latest`: switch to the newest branch through the message; `here`: the branch shown ends at it (branch from here). */
export const selectBranch = async (services: Services, caller: Caller, messageId: string, end: 'latest' | 'here') =>
  services.chat.selectBranch(member(caller).id, foundId(messageId, MESSAGE_NOT_FOUND), end, caller.meta);

export async function selectSwipe(services: Services, caller: Caller, messageId: string, index: number) {
  const user = member(caller);
  const id = foundId(messageId, MESSAGE_NOT_FOUND);
  return services.chat.selectSwipe(user.id, id, parseInput(SwipeChoice, { index }).index, caller.meta);
}

export const stopReply = async (services: Services, caller: Caller, conversationId: string) =>
  services.chat.stopReply(member(caller).id, foundId(conversationId, CONVERSATION_NOT_FOUND), caller.meta);

export async function chatProvider(services: Services, caller: Caller): Promise<ChatProviderInfo> {
  member(caller);
  const info = await services.chat.providerInfo(caller.meta);
  // The demo is always presented as the demo, whatever an older chat service reports as its source.
  return info.isDemo ? { ...info, source: 'demo', server: null } : info;
}

/** Live updates of one of the member's conversations; ownership is checked before listening (a stranger's is NOT_FOUND). */
export async function watchConversation(services: LiveServices, caller: Caller, conversationId: string) {
  await getConversation(services, caller, conversationId);
  return services.live.listen(LIVE_TOPICS.conversation, conversationId);
}
