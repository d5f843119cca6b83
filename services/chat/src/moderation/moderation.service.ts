import { type Bus, type Subscription, logger } from '@app/kit';
import {
  type EventEnvelope,
  MODERATION_LIMITS,
  type ModerationActioned,
  type ModerationState,
  type ModerationTarget,
  identityEvents,
} from '@app/schema';
import type { CharacterRow } from '../characters/characters.repository';
import type { ChatStore } from '../chat.store';
import type { ReplyForModeration } from '../conversations/conversations.repository';

/** Cuts a text to the snapshot length without splitting a surrogate pair (PostgreSQL's jsonb refuses a lone half). */
export function cutText(text: string, max: number = MODERATION_LIMITS.snapshotText): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return text.slice(0, end);
}

function characterTarget(row: CharacterRow): ModerationTarget {
  const texts = [row.description ?? '', row.scenario, row.greeting, row.system_prompt].filter((text) => text.trim());
  return {
    kind: 'character',
    id: row.id,
    ownerId: row.owner_id,
    title: row.name,
    text: cutText(texts.join('\n\n')),
    imageUrl: row.has_avatar ? `/api/moderation/characters/${row.id}/avatar` : null,
    isPublic: row.is_public,
    rating: row.rating,
    state: row.moderation_state,
    context: null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function replyTarget(row: ReplyForModeration): ModerationTarget {
  return {
    kind: 'reply',
    id: row.id,
    ownerId: row.owner_id,
    title: row.character_name,
    text: cutText(row.swipes[row.swipe_index]?.content ?? row.content),
    imageUrl: null,
    isPublic: false,
    rating: null,
    state: row.moderation_state,
    context: row.context === null ? null : cutText(row.context),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** What each content action leaves a character in; change_rating and dismiss leave its state alone. */
const CHARACTER_STATES: Partial<Record<ModerationActioned['action'], ModerationState>> = {
  hide: 'hidden',
  remove: 'removed',
  restore: 'visible',
};

/** A reply is seen by its owner only, so hiding it from others is removing it. */
const REPLY_STATES: Partial<Record<ModerationActioned['action'], ModerationState>> = {
  hide: 'removed',
  remove: 'removed',
  restore: 'visible',
};

/** Chat's side of trust and safety: describes characters and replies to moderators, and applies their decisions. */
export class ChatModeration {
  constructor(private readonly store: ChatStore) {}

  /** Characters and assistant replies whatever their state, in the order asked; unknown ids and user messages are left out. */
  async describe(characterIds: readonly string[], messageIds: readonly string[]): Promise<ModerationTarget[]> {
    const { characters, replies } = await this.store.run(async (repositories) => ({
      characters: characterIds.length ? await repositories.characters.findByIds(characterIds) : [],
      replies: messageIds.length ? await repositories.conversations.repliesForModeration(messageIds) : [],
    }));
    const characterById = new Map(characters.map((row) => [row.id, characterTarget(row)]));
    const replyById = new Map(replies.map((row) => [row.id, replyTarget(row)]));
    return [...characterIds.flatMap((id) => characterById.get(id) ?? []), ...messageIds.flatMap((id) => replyById.get(id) ?? [])];
  }

  /** A moderator's decision on a character or a reply; each sets a state outright, so a repeated event changes nothing. */
  async applyAction(action: ModerationActioned): Promise<void> {
    if (action.targetKind === 'character') {
      const state = CHARACTER_STATES[action.action];
      await this.store.run(async ({ characters }) => {
        if (state) await characters.setModerationState(action.targetId, state);
        if (action.action === 'change_rating' && action.rating) await characters.lockRating(action.targetId, action.rating);
      });
    } else if (action.targetKind === 'reply') {
      const state = REPLY_STATES[action.action];
      if (state) await this.store.run(({ conversations }) => conversations.setReplyModerationState(action.targetId, state));
    }
  }

  /** A suspended member's characters leave every list and read but their own; lifting it brings them back. */
  async setOwnerSuspended(userId: string, suspended: boolean): Promise<void> {
    await this.store.run(({ characters }) => characters.setOwnerSuspended(userId, suspended));
  }

  async apply(event: EventEnvelope): Promise<void> {
    switch (event.type) {
      case identityEvents.moderationActioned.type:
        return this.applyAction(identityEvents.moderationActioned.data.parse(event.data));
      case identityEvents.memberSuspended.type:
        return this.setOwnerSuspended(identityEvents.memberSuspended.data.parse(event.data).userId, true);
      case identityEvents.memberUnsuspended.type:
        return this.setOwnerSuspended(identityEvents.memberUnsuspended.data.parse(event.data).userId, false);
    }
  }
}

/**
 * Moderators' decisions and suspensions, from identity's events: redelivered until applied, so a crash
 * cannot lose one; from the start of the stream, so a new database catches up.
 */
export function startModerationConsumer(bus: Bus, moderation: ChatModeration): Promise<Subscription> {
  const subjects = [identityEvents.moderationActioned, identityEvents.memberSuspended, identityEvents.memberUnsuspended].map((e) => e.type);
  return bus.consumeEvents({ subjects, durableName: 'chat-moderation', deliver: 'all' }, async (event) => {
    await moderation.apply(event);
    logger.debug({ type: event.type, eventId: event.id }, 'moderation applied');
  });
}
