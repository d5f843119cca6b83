import { type Bus, type Subscription, logger } from '@app/kit';
import {
  AppError,
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
    text: cutText(row.content),
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

  /** A character's avatar whatever its state: moderators judge hidden and removed characters too. Null: it has none. */
  async avatar(characterId: string): Promise<{ contentType: string; body: Buffer } | null> {
    const avatar = await this.store.run(async ({ characters }) => {
      const [row] = await characters.findByIds([characterId]);
      if (!row) throw new AppError('NOT_FOUND', 'Character not found');
      return row.has_avatar ? characters.findAvatar(characterId) : null;
    });
    return avatar ? { contentType: avatar.content_type, body: avatar.body } : null;
  }

  /**
   * A moderator's decision on a character or a reply, decided at `occurredAt`. Each sets a state outright, so a
   * repeated event changes nothing, and one older than the decision last applied to the same aspect is skipped.
   */
  async applyAction(action: ModerationActioned, occurredAt: string): Promise<void> {
    if (action.targetKind === 'character') {
      const state = CHARACTER_STATES[action.action];
      const rating = action.action === 'change_rating' ? action.rating : null;
      await this.store.transaction(async ({ characters, moderation }) => {
        if (state && (await moderation.markApplied(action.targetId, 'state', occurredAt))) {
          await characters.setModerationState(action.targetId, state);
        }
        if (rating && (await moderation.markApplied(action.targetId, 'rating', occurredAt))) {
          await characters.lockRating(action.targetId, rating);
        }
      });
    } else if (action.targetKind === 'reply') {
      const state = REPLY_STATES[action.action];
      if (!state) return;
      await this.store.transaction(async ({ conversations, moderation }) => {
        if (!(await moderation.markApplied(action.targetId, 'state', occurredAt))) return;
        await conversations.setReplyModerationState(action.targetId, state);
        // A summary that folded the reply in would keep telling the model what it said; it is rebuilt without it.
        if (state === 'removed') await conversations.forgetSummaryCovering(action.targetId);
      });
    }
  }

  /** A suspended member's characters leave every list and read but their own; lifting it brings them back. */
  async setOwnerSuspended(userId: string, suspended: boolean, occurredAt: string): Promise<void> {
    await this.store.transaction(async ({ characters, moderation }) => {
      if (await moderation.markApplied(userId, 'suspension', occurredAt)) await characters.setOwnerSuspended(userId, suspended);
    });
  }

  async apply(event: EventEnvelope): Promise<void> {
    switch (event.type) {
      case identityEvents.moderationActioned.type:
        return this.applyAction(identityEvents.moderationActioned.data.parse(event.data), event.occurredAt);
      case identityEvents.memberSuspended.type:
        return this.setOwnerSuspended(identityEvents.memberSuspended.data.parse(event.data).userId, true, event.occurredAt);
      case identityEvents.memberUnsuspended.type:
        return this.setOwnerSuspended(identityEvents.memberUnsuspended.data.parse(event.data).userId, false, event.occurredAt);
    }
  }
}

/**
 * Moderators' decisions and suspensions, from identity's events: redelivered until applied, so a crash
 * cannot lose one; from the start of the stream, so a new database catches up. Each records when it was
 * decided, so a repeat or an older decision delivered late changes nothing.
 */
export function startModerationConsumer(bus: Bus, moderation: ChatModeration): Promise<Subscription> {
  const subjects = [identityEvents.moderationActioned, identityEvents.memberSuspended, identityEvents.memberUnsuspended].map((e) => e.type);
  return bus.consumeEvents({ subjects, durableName: 'chat-moderation', deliver: 'all' }, async (event) => {
    await moderation.apply(event);
    logger.debug({ type: event.type, eventId: event.id }, 'moderation applied');
  });
}
