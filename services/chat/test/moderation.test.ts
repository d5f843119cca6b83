import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import { UnitOfWork } from '@app/kit';
import {
  type Character,
  type CharacterInput,
  type CharacterPatch,
  type ContentRating,
  type EventDef,
  type EventEnvelope,
  chatRpc,
  identityEvents,
} from '@app/schema';
import type { z } from 'zod';
import { TestClient, registration } from '../../../gateway/test/http-client';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';
import { createChatService } from '../src';
import { chatRepositories } from '../src/chat.store';
import { ChatModeration } from '../src/moderation/moderation.service';
import { ScriptedProvider } from './scripted-provider';

jest.setTimeout(60_000);

const CARD_FIXTURES = path.join(__dirname, 'fixtures', 'cards');
const ALL_RATINGS: ContentRating[] = ['safe', 'suggestive', 'explicit'];
const REPLY = 'Hello from the scripted model.';

/** Moderators' decisions reach chat as identity's events; chat's RPCs are called as the gateway calls them. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('chat moderation on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  const provider = new ScriptedProvider();

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
      services: [identityService, createChatService({ provider, sweepIntervalMs: 200, flushIntervalMs: 50 })],
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });

  const service = (name: string) => platform.services.find((running) => running.name === name)!;
  const meta = (userId: string) => ({ userId });

  /** A registered member's id (chat's quotas and charges are identity's). */
  async function member(): Promise<string> {
    const client = new TestClient(platform.url);
    expect((await client.fetch('/api/auth/register', { method: 'POST', json: registration() })).status).toBe(201);
    return ((await (await client.fetch('/api/user')).json()) as { id: string }).id;
  }

  /** Appends an event as identity does: through its outbox, relayed to the bus after the commit. */
  async function announce<E extends EventDef>(event: E, data: z.input<E['data']>): Promise<EventEnvelope> {
    const envelope = {
      id: randomUUID(),
      type: event.type,
      version: event.version,
      occurredAt: new Date().toISOString(),
      actorId: null,
      data,
    };
    await service('identity').db.execute(`INSERT INTO "identity"."outbox" ("id", "envelope") VALUES ($1, $2)`, [
      envelope.id,
      JSON.stringify(envelope),
    ]);
    return envelope;
  }

  const act = (action: string, targetKind: 'character' | 'reply', targetId: string, rating: ContentRating | null = null) =>
    announce(identityEvents.moderationActioned, {
      auditId: randomUUID(),
      action: action as 'hide',
      targetKind,
      targetId,
      ownerId: null,
      rating,
      caseId: null,
      moderatorId: null,
    });

  const create = (userId: string, input: CharacterInput) => platform.bus.request(chatRpc.createCharacter, { userId, input }, meta(userId));
  const update = (userId: string, characterId: string, input: CharacterPatch) =>
    platform.bus.request(chatRpc.updateCharacter, { userId, characterId, input }, meta(userId));
  const get = (userId: string, characterId: string, ratings: ContentRating[] = ALL_RATINGS) =>
    platform.bus.request(chatRpc.getCharacter, { userId, characterId, ratings }, meta(userId));
  const publicIds = async (userId: string, ratings: ContentRating[] = ALL_RATINGS) =>
    (await platform.bus.request(chatRpc.listPublicCharacters, { userId, first: 100, ratings }, meta(userId))).items.map((c) => c.id);
  const ownIds = async (userId: string) =>
    (await platform.bus.request(chatRpc.listCharacters, { userId }, meta(userId))).items.map((c) => c.id);
  const startChat = (userId: string, characterId: string | null = null) =>
    platform.bus.request(chatRpc.createConversation, { userId, title: 'Moderated', characterId }, meta(userId));
  const messages = async (userId: string, conversationId: string) =>
    (await platform.bus.request(chatRpc.listMessages, { userId, conversationId, limit: 50 }, meta(userId))).messages;

  /** Sends a message and waits for its reply to complete. */
  async function converse(userId: string, conversationId: string, content: string) {
    const sent = await platform.bus.request(chatRpc.sendMessage, { userId, conversationId, content }, meta(userId));
    await eventually(async () => {
      const reply = await platform.bus.request(chatRpc.getMessage, { userId, messageId: sent.assistantMessage.id }, meta(userId));
      expect(reply.status).toBe('complete');
    });
    return sent;
  }

  describe('ratings', () => {
    it('create takes the given rating or explicit, an update changes it only when named, an imported card is explicit', async () => {
      const alice = await member();
      const rated = await create(alice, { name: 'Rated', isPublic: true, rating: 'safe' });
      expect(rated).toMatchObject({ rating: 'safe', moderationState: 'visible' });
      const unrated = await create(alice, { name: 'Unrated', isPublic: true });
      expect(unrated.rating).toBe('explicit');

      expect(await update(alice, rated.id, { description: 'Still safe' })).toMatchObject({ rating: 'safe', description: 'Still safe' });
      expect((await update(alice, rated.id, { rating: 'suggestive' })).rating).toBe('suggestive');
      expect((await update(alice, rated.id, { rating: null })).rating).toBe('suggestive');
      // A rating outside the contract, as a client without types could send: the bus refuses it.
      await expect(update(alice, rated.id, { rating: 'spicy' } as unknown as CharacterPatch)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });

      const bob = await member();
      const fileBase64 = fs.readFileSync(path.join(CARD_FIXTURES, 'v2-sillytavern.json')).toString('base64');
      const imported = await platform.bus.request(chatRpc.importCharacterCard, { userId: bob, fileBase64 }, meta(bob));
      expect(imported).toMatchObject({ rating: 'explicit', isPublic: false, moderationState: 'visible' });
    });

    it("the public list and others' reads hold to the viewer's ratings; the owner reads theirs at any", async () => {
      const carol = await member();
      const safe = await create(carol, { name: 'Mild', isPublic: true, rating: 'safe' });
      const explicit = await create(carol, { name: 'Bold', isPublic: true, rating: 'explicit' });
      const dave = await member();

      expect(await publicIds(dave, ['safe'])).toContain(safe.id);
      expect(await publicIds(dave, ['safe'])).not.toContain(explicit.id);
      expect(await publicIds(dave, ['safe', 'explicit'])).toEqual(expect.arrayContaining([safe.id, explicit.id]));
      expect(await publicIds(dave, ['suggestive'])).not.toContain(safe.id);

      await expect(get(dave, explicit.id, ['safe', 'suggestive'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await get(dave, explicit.id, ['explicit'])).id).toBe(explicit.id);
      expect((await get(carol, explicit.id, ['safe'])).id).toBe(explicit.id);

      await update(carol, safe.id, { isPublic: false });
      expect(await publicIds(dave)).not.toContain(safe.id);
      await expect(get(dave, safe.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it("a moderator's rating is kept: the owner's later rating is ignored, their other changes are not", async () => {
      const erin = await member();
      const character = await create(erin, { name: 'Relabelled', isPublic: true, rating: 'safe' });
      const viewer = await member();
      await act('change_rating', 'character', character.id, 'explicit');
      await eventually(async () => expect((await get(erin, character.id)).rating).toBe('explicit'), 10_000);
      expect(await publicIds(viewer, ['safe'])).not.toContain(character.id);
      expect(await publicIds(viewer, ['explicit'])).toContain(character.id);

      expect(await update(erin, character.id, { rating: 'safe', description: 'Changed' })).toMatchObject({
        rating: 'explicit',
        description: 'Changed',
        moderationState: 'visible',
      });
    });
  });

  describe('hidden and removed characters', () => {
    it('hidden: only its owner sees it (marked); removed: gone for everyone; conversations with it go on; restore brings it back', async () => {
      const owner = await member();
      const character = await create(owner, { name: 'Nyx', isPublic: true, rating: 'safe', greeting: 'Good evening.' });
      const fan = await member();
      const { id: conversationId } = await startChat(fan, character.id);

      await act('hide', 'character', character.id);
      await eventually(async () => expect((await get(owner, character.id)).moderationState).toBe('hidden'), 10_000);
      expect(await ownIds(owner)).toContain(character.id);
      await expect(get(fan, character.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await publicIds(fan)).not.toContain(character.id);
      await expect(startChat(fan, character.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        platform.bus.request(chatRpc.getCharacterAvatar, { userId: fan, characterId: character.id, ratings: ALL_RATINGS }, meta(fan)),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        platform.bus.request(
          chatRpc.exportCharacterCard,
          { userId: fan, characterId: character.id, format: 'json_v2', ratings: ALL_RATINGS },
          meta(fan),
        ),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      // The owner still edits and exports it; hiding is not lifted by publishing it again.
      expect(await update(owner, character.id, { isPublic: true, description: 'Edited' })).toMatchObject({ moderationState: 'hidden' });
      expect(await publicIds(fan)).not.toContain(character.id);
      await converse(fan, conversationId, 'Still there?');
      expect(provider.prompts.at(-1)![0]!.content).toContain('Name: Nyx');

      await act('remove', 'character', character.id);
      await eventually(() => expect(get(owner, character.id)).rejects.toMatchObject({ code: 'NOT_FOUND' }), 10_000);
      expect(await ownIds(owner)).not.toContain(character.id);
      await expect(update(owner, character.id, { name: 'Back' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        platform.bus.request(chatRpc.deleteCharacter, { userId: owner, characterId: character.id }, meta(owner)),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(startChat(owner, character.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await converse(fan, conversationId, 'And now?');
      expect(provider.prompts.at(-1)![0]!.content).toContain('Name: Nyx');

      await act('restore', 'character', character.id);
      await eventually(async () => expect((await get(fan, character.id)).moderationState).toBe('visible'), 10_000);
      expect(await publicIds(fan)).toContain(character.id);
    });

    it("a suspended member's characters leave others' lists and reads; lifting the suspension brings them back", async () => {
      const suspended = await member();
      const character = await create(suspended, { name: 'Paused', isPublic: true, rating: 'safe' });
      const viewer = await member();
      expect(await publicIds(viewer)).toContain(character.id);

      await announce(identityEvents.memberSuspended, { userId: suspended, auditId: randomUUID(), moderatorId: null });
      await eventually(async () => expect(await publicIds(viewer)).not.toContain(character.id), 10_000);
      await expect(get(viewer, character.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(startChat(viewer, character.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });

      await announce(identityEvents.memberUnsuspended, { userId: suspended, auditId: randomUUID(), moderatorId: null });
      await eventually(async () => expect(await publicIds(viewer)).toContain(character.id), 10_000);
      expect((await get(viewer, character.id)).moderationState).toBe('visible');
    });
  });

  describe('removed replies', () => {
    it('are served without their text and left out of the next prompt; regenerating one is refused; restore shows it again', async () => {
      const owner = await member();
      const { id: conversationId } = await startChat(owner);
      const first = await converse(owner, conversationId, 'Tell me something');
      const replyId = first.assistantMessage.id;

      await act('hide', 'reply', replyId);
      await eventually(async () => {
        const removed = (await messages(owner, conversationId)).find((message) => message.id === replyId)!;
        expect(removed).toMatchObject({ moderationState: 'removed', content: '', status: 'complete' });
        expect(removed.swipes.map((swipe) => swipe.content)).toEqual(['']);
      }, 10_000);
      expect(await platform.bus.request(chatRpc.getMessage, { userId: owner, messageId: replyId }, meta(owner))).toMatchObject({
        content: '',
        moderationState: 'removed',
      });
      await expect(platform.bus.request(chatRpc.regenerateReply, { userId: owner, conversationId }, meta(owner))).rejects.toMatchObject({
        code: 'CONFLICT',
      });

      await converse(owner, conversationId, 'Go on');
      const prompt = provider.prompts.at(-1)!;
      expect(prompt.slice(1).map((message) => [message.role, message.content])).toEqual([
        ['user', 'Tell me something'],
        ['user', 'Go on'],
      ]);

      await act('restore', 'reply', replyId);
      await eventually(async () => {
        const restored = (await messages(owner, conversationId)).find((message) => message.id === replyId)!;
        expect(restored).toMatchObject({ moderationState: 'visible', content: REPLY });
      }, 10_000);
    });

    it('do not live on in the rolling summary: the summary that folded one in is dropped and rebuilt from the turns that remain', async () => {
      provider.contextTokens = 400;
      provider.maxReplyTokens = 64;
      try {
        const owner = await member();
        const { id: conversationId } = await startChat(owner);
        const db = service('chat').db;
        const turnIds: string[] = [];
        for (let i = 0; i < 20; i++) {
          turnIds.push(randomUUID());
          await db.execute(
            `INSERT INTO "chat"."messages" ("id", "conversation_id", "owner_id", "role", "content", "status", "parent_id")
             VALUES ($1, $2, $3, $4, $5, 'complete', $6)`,
            [
              turnIds[i],
              conversationId,
              owner,
              i % 2 ? 'assistant' : 'user',
              `turn ${i}: ${'a long sentence about the voyage '.repeat(6)}`,
              turnIds[i - 1] ?? null,
            ],
          );
        }
        // One branch, shown.
        await db.execute(`UPDATE "chat"."conversations" SET "active_leaf_id" = $2 WHERE "id" = $1`, [conversationId, turnIds.at(-1)]);
        const removedId = turnIds[1]!;
        const [removed] = await db.query<{ seq: string }>(`SELECT "seq" FROM "chat"."messages" WHERE "id" = $1`, [removedId]);
        const summaryOf = async () =>
          (
            await db.query<{ summary: string | null; summary_upto_seq: string | null }>(
              `SELECT "summary", "summary_upto_seq" FROM "chat"."conversations" WHERE "id" = $1`,
              [conversationId],
            )
          )[0]!;
        const isSummaryRequest = (prompt: (typeof provider.prompts)[number]) => prompt[0]!.content.startsWith('Summarize');

        await converse(owner, conversationId, 'What happened so far?');
        await eventually(async () => expect((await summaryOf()).summary).toBe(REPLY), 10_000);
        expect(Number((await summaryOf()).summary_upto_seq)).toBeGreaterThanOrEqual(Number(removed!.seq));

        await act('remove', 'reply', removedId);
        await eventually(async () => expect(await summaryOf()).toEqual({ summary: null, summary_upto_seq: null }), 10_000);
        // A summary that was being written as the reply was removed is not kept.
        const store = new UnitOfWork(db, chatRepositories);
        expect(
          await store.run(({ conversations }) => conversations.saveSummary(conversationId, 'Stale', null, [Number(removed!.seq)])),
        ).toBe(false);
        expect((await summaryOf()).summary).toBeNull();

        const before = provider.prompts.length;
        await converse(owner, conversationId, 'And then?');
        const prompt = provider.prompts.slice(before).find((request) => !isSummaryRequest(request))!;
        expect(prompt.some((message) => message.content.startsWith('Summary of the earlier conversation'))).toBe(false);
        await eventually(async () => expect((await summaryOf()).summary).toBe(REPLY), 10_000);
        const rebuilt = provider.prompts.slice(before).find(isSummaryRequest)!;
        expect(rebuilt.some((message) => message.content.startsWith('turn 0:'))).toBe(true);
        expect(rebuilt.some((message) => message.content.startsWith('turn 1:'))).toBe(false);
        expect(rebuilt.some((message) => message.content.startsWith('Summary so far'))).toBe(false);
      } finally {
        provider.contextTokens = 4096;
        provider.maxReplyTokens = 256;
      }
    });
  });

  describe('describeContent', () => {
    it('describes a character (with its avatar) and a reply in context, whatever their state; user messages and unknown ids are left out', async () => {
      const owner = await member();
      const fileBase64 = fs.readFileSync(path.join(CARD_FIXTURES, 'v2-chara.png')).toString('base64');
      const pictured = await platform.bus.request(chatRpc.importCharacterCard, { userId: owner, fileBase64 }, meta(owner));
      expect(pictured.avatar).not.toBeNull();
      const long = 'The tide keeps its secrets. '.repeat(500);
      const written: Character = await create(owner, {
        name: 'Marin',
        description: 'A lighthouse keeper',
        scenario: long,
        greeting: 'Ahoy.',
        systemPrompt: 'Speak softly.',
        isPublic: true,
        rating: 'suggestive',
      });
      const { id: conversationId } = await startChat(owner, written.id);
      const sent = await converse(owner, conversationId, 'What do you see?');
      await act('remove', 'reply', sent.assistantMessage.id);
      await eventually(async () => {
        const reply = await platform.bus.request(chatRpc.getMessage, { userId: owner, messageId: sent.assistantMessage.id }, meta(owner));
        expect(reply.moderationState).toBe('removed');
      }, 10_000);

      const { targets } = await platform.bus.request(chatRpc.describeContent, {
        characterIds: [written.id, randomUUID(), pictured.id],
        messageIds: [sent.userMessage.id, sent.assistantMessage.id, randomUUID()],
      });
      expect(targets.map((target) => [target.kind, target.id])).toEqual([
        ['character', written.id],
        ['character', pictured.id],
        ['reply', sent.assistantMessage.id],
      ]);
      const [character, withAvatar, reply] = targets;
      expect(character).toMatchObject({
        ownerId: owner,
        title: 'Marin',
        imageUrl: null,
        isPublic: true,
        rating: 'suggestive',
        state: 'visible',
        context: null,
        createdAt: written.createdAt,
      });
      expect(character!.text.startsWith('A lighthouse keeper\n\nThe tide keeps its secrets.')).toBe(true);
      expect(character!.text).toHaveLength(4000);
      expect(withAvatar).toMatchObject({
        imageUrl: `/api/moderation/characters/${pictured.id}/avatar`,
        isPublic: false,
        rating: 'explicit',
        title: pictured.name,
      });
      // Moderators see the removed reply's text, the character it spoke as and the message it answered.
      expect(reply).toEqual({
        kind: 'reply',
        id: sent.assistantMessage.id,
        ownerId: owner,
        title: 'Marin',
        text: REPLY,
        imageUrl: null,
        isPublic: false,
        rating: null,
        state: 'removed',
        context: 'What do you see?',
        createdAt: sent.assistantMessage.createdAt,
      });
    });
  });

  describe('the chat-moderation consumer', () => {
    it('applies the same event twice with the same outcome', async () => {
      const owner = await member();
      const character = await create(owner, { name: 'Twice', isPublic: true, rating: 'safe' });
      const viewer = await member();
      const hide = await act('hide', 'character', character.id);
      const relabel = await act('change_rating', 'character', character.id, 'suggestive');
      const suspend = await announce(identityEvents.memberSuspended, { userId: owner, auditId: randomUUID(), moderatorId: null });
      await eventually(async () => {
        const seen = await get(owner, character.id);
        expect(seen).toMatchObject({ moderationState: 'hidden', rating: 'suggestive' });
      }, 10_000);

      // As if the bus redelivered each of them (a crash before the acknowledgement).
      const moderation = new ChatModeration(new UnitOfWork(service('chat').db, chatRepositories));
      for (const event of [hide, relabel, suspend, hide, relabel, suspend]) await moderation.apply(event);
      expect(await get(owner, character.id)).toMatchObject({ moderationState: 'hidden', rating: 'suggestive' });
      expect(await ownIds(owner)).toEqual([character.id]);
      expect(await publicIds(viewer)).not.toContain(character.id);
    });

    it('never lets an older decision, delivered late, undo a newer one; state, rating and suspension are each ordered on their own', async () => {
      const owner = await member();
      const character = await create(owner, { name: 'Late', isPublic: true, rating: 'safe' });
      const viewer = await member();
      const { id: conversationId } = await startChat(owner);
      const replyId = (await converse(owner, conversationId, 'Say something')).assistantMessage.id;
      // The consumer's handler, as the bus calls it when a failed event is redelivered after the ones behind it.
      const moderation = new ChatModeration(new UnitOfWork(service('chat').db, chatRepositories));
      const now = Date.now();
      const envelope = <E extends EventDef>(event: E, data: z.input<E['data']>, msAgo: number): EventEnvelope => ({
        id: randomUUID(),
        type: event.type,
        version: event.version,
        occurredAt: new Date(now - msAgo).toISOString(),
        actorId: null,
        data,
      });
      const decision = (
        action: string,
        targetKind: 'character' | 'reply',
        targetId: string,
        msAgo: number,
        rating: ContentRating | null = null,
      ) =>
        envelope(
          identityEvents.moderationActioned,
          {
            auditId: randomUUID(),
            action: action as 'hide',
            targetKind,
            targetId,
            ownerId: owner,
            rating,
            caseId: null,
            moderatorId: null,
          },
          msAgo,
        );
      const suspension = (suspended: boolean, msAgo: number) =>
        envelope(
          suspended ? identityEvents.memberSuspended : identityEvents.memberUnsuspended,
          { userId: owner, auditId: randomUUID(), moderatorId: null },
          msAgo,
        );

      await moderation.apply(decision('remove', 'character', character.id, 2_000));
      expect(await ownIds(owner)).not.toContain(character.id);
      await moderation.apply(decision('restore', 'character', character.id, 1_000));
      await moderation.apply(decision('remove', 'character', character.id, 2_000));
      await moderation.apply(decision('hide', 'character', character.id, 1_500));
      expect((await get(viewer, character.id)).moderationState).toBe('visible');

      // Older than the restore, but the first rating decision: it applies; an even older one does not.
      await moderation.apply(decision('change_rating', 'character', character.id, 3_000, 'suggestive'));
      await moderation.apply(decision('change_rating', 'character', character.id, 4_000, 'explicit'));
      expect((await get(owner, character.id)).rating).toBe('suggestive');

      await moderation.apply(suspension(false, 1_000));
      await moderation.apply(suspension(true, 2_000));
      expect(await publicIds(viewer)).toContain(character.id);

      await moderation.apply(decision('remove', 'reply', replyId, 1_000));
      await moderation.apply(decision('restore', 'reply', replyId, 2_000));
      expect(await platform.bus.request(chatRpc.getMessage, { userId: owner, messageId: replyId }, meta(owner))).toMatchObject({
        moderationState: 'removed',
        content: '',
      });
    });
  });

  describe('avatars and card exports', () => {
    it("hold to the viewer's ratings like the character itself; the owner's come at any rating", async () => {
      const owner = await member();
      const fileBase64 = fs.readFileSync(path.join(CARD_FIXTURES, 'v2-chara.png')).toString('base64');
      const imported = await platform.bus.request(chatRpc.importCharacterCard, { userId: owner, fileBase64 }, meta(owner));
      await update(owner, imported.id, { isPublic: true, rating: 'explicit' });
      const viewer = await member();
      const avatar = (userId: string, ratings: ContentRating[]) =>
        platform.bus.request(chatRpc.getCharacterAvatar, { userId, characterId: imported.id, ratings }, meta(userId));
      const exported = (userId: string, ratings: ContentRating[]) =>
        platform.bus.request(chatRpc.exportCharacterCard, { userId, characterId: imported.id, format: 'json_v2', ratings }, meta(userId));

      await expect(avatar(viewer, ['safe', 'suggestive'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(exported(viewer, ['safe', 'suggestive'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await avatar(viewer, ALL_RATINGS))?.contentType).toBe('image/png');
      expect((await exported(viewer, ['explicit'])).contentType).toBe('application/json');
      expect((await avatar(owner, ['safe']))?.contentType).toBe('image/png');
      expect((await exported(owner, ['safe'])).contentType).toBe('application/json');
      // A contract call that names no ratings is read as a visitor's: safe only.
      await expect(
        platform.bus.request(chatRpc.getCharacterAvatar, { userId: viewer, characterId: imported.id }, meta(viewer)),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('moderators get the avatar of any character, a removed one too; a character without one has none, an unknown one is not found', async () => {
      const owner = await member();
      const fileBase64 = fs.readFileSync(path.join(CARD_FIXTURES, 'v2-chara.png')).toString('base64');
      const pictured = await platform.bus.request(chatRpc.importCharacterCard, { userId: owner, fileBase64 }, meta(owner));
      const plain = await create(owner, { name: 'No picture' });
      const moderated = (characterId: string) => platform.bus.request(chatRpc.moderatedCharacterAvatar, { characterId });

      await act('remove', 'character', pictured.id);
      await eventually(
        () =>
          expect(
            platform.bus.request(
              chatRpc.getCharacterAvatar,
              { userId: owner, characterId: pictured.id, ratings: ALL_RATINGS },
              meta(owner),
            ),
          ).rejects.toMatchObject({ code: 'NOT_FOUND' }),
        10_000,
      );
      expect((await moderated(pictured.id))?.contentType).toBe('image/png');
      expect(await moderated(plain.id)).toBeNull();
      await expect(moderated(randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });
});
