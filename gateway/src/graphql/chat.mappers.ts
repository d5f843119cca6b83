import type { Character, ChatLiveUpdate, Message, PageInfo } from '@app/schema';
import {
  type CharacterType,
  type ConversationUpdateKind,
  type ConversationUpdateType,
  type MessageRoleType,
  type MessageStatusType,
  type MessageType,
} from './chat.types';
import type { ContentRatingType, ModerationStateType } from './moderation.types';

export function toMessageType(message: Message): MessageType {
  return {
    id: message.id,
    conversationId: message.conversationId,
    role: message.role as MessageRoleType,
    content: message.content,
    status: message.status as MessageStatusType,
    model: message.model,
    errorCode: message.errorCode,
    parentId: message.parentId,
    edited: message.edited,
    promptReport: message.promptReport,
    swipeIndex: message.swipeIndex,
    swipeCount: Math.max(message.swipes.length, 1),
    swipes: message.swipes.map((swipe) => ({ ...swipe, status: swipe.status as MessageStatusType })),
    moderationState: message.moderationState as ModerationStateType,
    createdAt: message.createdAt,
    updatedAt: message.updatedAt,
  };
}

export function toCharacterType(character: Character, viewerId: string | undefined): CharacterType {
  const { ownerId, ...fields } = character;
  return {
    ...fields,
    rating: character.rating as ContentRatingType,
    moderationState: character.moderationState as ModerationStateType,
    isMine: ownerId === viewerId,
  };
}

export function toUpdateType(update: ChatLiveUpdate): ConversationUpdateType {
  const base = { type: update.type as ConversationUpdateKind, conversationId: update.conversationId };
  switch (update.type) {
    case 'typing':
      return { ...base, typing: update.typing };
    case 'delta':
      return { ...base, messageId: update.messageId, swipeIndex: update.swipeIndex, offset: update.offset, text: update.text };
    case 'message':
      return { ...base, messageId: update.message.id, message: toMessageType(update.message) };
    case 'branch':
      return { ...base, activeLeafId: update.activeLeafId };
    case 'deleted':
      return base;
  }
}

/** A Relay connection from a service's page: edges with their cursors, and the nodes alone for clients that need no cursor. */
export function toConnection<Item, Node, Count extends number | null>(
  page: { items: Item[]; cursors: string[]; pageInfo: PageInfo; totalCount: Count },
  toNode: (item: Item) => Node,
) {
  const nodes = page.items.map(toNode);
  return {
    edges: nodes.map((node, index) => ({ cursor: page.cursors[index]!, node })),
    nodes,
    pageInfo: page.pageInfo,
    totalCount: page.totalCount,
  };
}

/** Cursors are opaque to clients: base64 of the message's position. */
export const encodeCursor = (seq: number): string => Buffer.from(`seq:${seq}`).toString('base64url');

export function decodeCursor(cursor: string): number | null {
  const match = /^seq:(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : null;
}

/** GraphQL sends explicit nulls; for a patch they mean "unchanged", except where null clears a value. */
export function patchFrom<T extends object>(input: T, clearable: (keyof T)[] = []): Partial<T> {
  return Object.fromEntries(
    Object.entries(input).filter(([key, value]) => value !== null || clearable.includes(key as keyof T)),
  ) as Partial<T>;
}
