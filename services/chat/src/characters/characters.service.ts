import { randomUUID } from 'node:crypto';
import { type ContentPolicy, type PolicyVerdict, collectTexts } from '@app/policy';
import {
  AppError,
  CHAT_LIMITS,
  type Character,
  CharacterInput,
  type CharacterPage,
  CharacterPatch,
  type ContentRating,
  type PageRequest,
  UNRATED_DEFAULT,
  chatEvents,
  validationError,
} from '@app/schema';
import { type CardParser, CardRefused, type ReadCard, assertCardFileSize } from '../cards/card-parser';
import { CardError, type CharacterCardData, cardToJson, cardToPng } from '../cards/character-card';
import type { ChatStore } from '../chat.store';
import { toPage } from '../keyset-page';
import type { MemberLedger } from '../member-ledger';
import { withoutEmptySettings } from '../generation/sampling';
import { type CharacterRow, type NewCharacter, type StoredCardFields, toCharacter } from './characters.repository';

const notFound = () => new AppError('NOT_FOUND', 'Character not found');

/** The verdict behind a card the worker refused, for the refusal record. */
const refusedBy = (error: CardRefused): PolicyVerdict => {
  const category = error.details?.policyCategory;
  // The worker refuses by the lexical stage only; a picture's hash never refuses a card.
  const reason = category === undefined || category === 'blocked_hash' ? 'minors' : category;
  return { allowed: false, reason, stage: 'lexical', evidence: error.evidence };
};

/** Splits a card's free-text personality into traits when it reads like a list ("shy, curious; kind"). */
export function traitsFromPersonality(personality: string): string[] {
  const parts = personality
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.length > 20 || parts.some((part) => part.length > 40)) return [];
  return [...new Map(parts.map((part) => [part.toLowerCase(), part])).values()];
}

/** A character made from a card that has been read and checked against the content rules. */
function importedCharacter(userId: string, { data, avatarPng }: ReadCard): NewCharacter {
  const { name, description, personality, scenario, first_mes, mes_example, system_prompt, ...rest } = data;
  const stored: StoredCardFields = {
    creator_notes: rest.creator_notes,
    post_history_instructions: rest.post_history_instructions,
    alternate_greetings: rest.alternate_greetings,
    tags: rest.tags,
    creator: rest.creator,
    character_version: rest.character_version,
    extensions: rest.extensions,
    ...(rest.character_book !== undefined ? { character_book: rest.character_book } : {}),
    extra: rest.extra,
  };
  return {
    id: randomUUID(),
    ownerId: userId,
    name: name.trim().slice(0, 80) || 'Unnamed',
    description: description.trim() || null,
    traits: traitsFromPersonality(personality),
    personalityText: personality,
    isPublic: false,
    // A card names no rating of ours; it is private until its owner publishes it with one.
    rating: UNRATED_DEFAULT,
    scenario,
    greeting: first_mes,
    exampleDialogue: mes_example,
    systemPrompt: system_prompt,
    card: stored,
    avatar: avatarPng ? { contentType: 'image/png', body: avatarPng } : null,
  };
}

/** Characters: CRUD with owner rights, public discovery, and Character Card V1/V2/V3 import/export. */
export class CharactersService {
  constructor(
    private readonly store: ChatStore,
    private readonly ledger: MemberLedger,
    private readonly cards: CardParser,
    private readonly policy: ContentPolicy,
  ) {}

  async list(userId: string, request: PageRequest): Promise<CharacterPage> {
    const [rows, totalCount] = await this.store.run(
      async ({ characters }) =>
        [await characters.listByOwner(userId, request, CHAT_LIMITS.pageSizeMax), await characters.countByOwner(userId)] as const,
    );
    return { ...toPage(rows, request, toCharacter), totalCount };
  }

  /** Public characters in the viewer's ratings; hidden, removed and suspended members' characters are left out. */
  async listPublic(ratings: readonly ContentRating[], request: PageRequest): Promise<CharacterPage> {
    const rows = await this.store.run(({ characters }) => characters.listPublic(ratings, request, CHAT_LIMITS.publicCharactersPageDefault));
    return { ...toPage(rows, request, toCharacter), totalCount: null };
  }

  async get(userId: string, id: string, ratings: readonly ContentRating[]): Promise<Character> {
    const row = await this.findVisibleRow(userId, id, ratings);
    if (!row) throw notFound();
    return toCharacter(row);
  }

  /**
   * The row behind a character the member may see or chat with: their own, or a public one nobody moderated
   * away. With null `ratings` (reads whose contract carries none) any rating passes.
   */
  findVisibleRow(userId: string, id: string, ratings: readonly ContentRating[] | null): Promise<CharacterRow | null> {
    return this.store.run(({ characters }) => characters.findVisible(id, userId, ratings));
  }

  async create(userId: string, rawInput: unknown): Promise<Character> {
    const parsed = CharacterInput.safeParse(rawInput);
    if (!parsed.success) throw validationError(parsed.error);
    const input = parsed.data;
    await this.policy.assertAllowed(
      [
        input.name,
        input.description,
        input.personalityTraits.join(', '),
        input.scenario,
        input.greeting,
        input.exampleDialogue,
        input.systemPrompt,
      ],
      { path: 'character', userId },
    );
    return this.insert(
      {
        id: randomUUID(),
        ownerId: userId,
        name: input.name,
        description: input.description,
        traits: input.personalityTraits,
        personalityText: null,
        isPublic: input.isPublic,
        rating: input.rating ?? UNRATED_DEFAULT,
        scenario: input.scenario ?? '',
        greeting: input.greeting ?? '',
        exampleDialogue: input.exampleDialogue ?? '',
        systemPrompt: input.systemPrompt ?? '',
        card: {},
        sampling: withoutEmptySettings(input.sampling),
        avatar: null,
      },
      false,
    );
  }

  async update(userId: string, id: string, rawPatch: unknown): Promise<Character> {
    const parsed = CharacterPatch.safeParse(rawPatch);
    if (!parsed.success) throw validationError(parsed.error);
    const patch = parsed.data;
    const row = await this.store.transaction(async ({ characters }, tx) => {
      const current = await characters.findOwned(id, userId, tx);
      if (!current) throw notFound();
      const next: CharacterRow = {
        ...current,
        name: patch.name ?? current.name,
        description: patch.description !== undefined ? patch.description : current.description,
        traits: patch.personalityTraits ?? current.traits,
        // Edited traits replace an imported card's free-text personality.
        personality_text: patch.personalityTraits ? null : current.personality_text,
        is_public: patch.isPublic ?? current.is_public,
        // Once a moderator set the rating, the owner's is ignored.
        rating: current.rating_locked ? current.rating : (patch.rating ?? current.rating),
        scenario: patch.scenario ?? current.scenario,
        greeting: patch.greeting ?? current.greeting,
        example_dialogue: patch.exampleDialogue ?? current.example_dialogue,
        system_prompt: patch.systemPrompt ?? current.system_prompt,
        // As every field, null leaves the settings as they are; an empty object clears them.
        sampling: patch.sampling ? withoutEmptySettings(patch.sampling) : current.sampling,
      };
      // Every field the character will show, the imported card's lorebook and extensions included.
      await this.policy.assertAllowed(
        [
          next.name,
          next.description,
          next.traits.join(', '),
          next.personality_text,
          next.scenario,
          next.greeting,
          next.example_dialogue,
          next.system_prompt,
          ...collectTexts(next.card),
        ],
        { path: 'character', userId },
      );
      const updated = await characters.update(next);
      await tx.emit(chatEvents.characterUpdated, { characterId: id, isPublic: updated.is_public }, userId);
      return updated;
    });
    return toCharacter(row);
  }

  async delete(userId: string, id: string): Promise<void> {
    await this.store.transaction(async ({ characters }, tx) => {
      if (!(await characters.delete(id, userId))) throw notFound();
      await tx.emit(chatEvents.characterDeleted, { characterId: id }, userId);
    });
  }

  /**
   * Imports a card file (base64). Size and the member's creation quota are checked first, so a file that cannot
   * be kept costs no parse; the card is read off the event loop; the quota use is counted when it is stored.
   */
  async importCard(userId: string, fileBase64: string, deadlineAt?: number): Promise<Character> {
    assertCardFileSize(fileBase64);
    await this.ledger.assertCharacterQuotaLeft(userId);
    const card = await this.cards.read(fileBase64, deadlineAt).catch(async (error: unknown) => {
      if (error instanceof CardRefused) await this.policy.recordRefusal(refusedBy(error), '', { path: 'card.import', userId });
      throw error;
    });
    // The worker ran the lexical stage over every text of the card; the moderation model (when configured) runs here.
    await this.policy.assertAllowed(collectTexts(card.data), { path: 'card.import', userId, lexical: false });
    return this.insert(importedCharacter(userId, card), true);
  }

  /** The owner's character at any rating; anyone else's public one only in the viewer's ratings. */
  async exportCard(
    userId: string,
    id: string,
    format: 'png' | 'json_v2' | 'json_v3',
    ratings: readonly ContentRating[],
  ): Promise<{ fileName: string; contentType: string; body: Buffer }> {
    const row = await this.findVisibleRow(userId, id, ratings);
    if (!row) throw notFound();
    try {
      return await this.writeCard(id, row, format);
    } catch (error) {
      if (error instanceof CardError) throw new AppError('VALIDATION_FAILED', error.message);
      throw error;
    }
  }

  private async writeCard(
    id: string,
    row: CharacterRow,
    format: 'png' | 'json_v2' | 'json_v3',
  ): Promise<{ fileName: string; contentType: string; body: Buffer }> {
    const data = this.toCardData(row);
    const baseName =
      row.name
        .replace(/[^\p{L}\p{N} _-]+/gu, '')
        .trim()
        .slice(0, 60) || 'character';
    if (format === 'png') {
      const avatar = row.has_avatar ? await this.findAvatar(id) : null;
      const image = avatar?.content_type === 'image/png' ? avatar.body : null;
      return { fileName: `${baseName}.png`, contentType: 'image/png', body: cardToPng(data, image) };
    }
    const spec = format === 'json_v2' ? 'v2' : 'v3';
    return { fileName: `${baseName}.${spec}.json`, contentType: 'application/json', body: Buffer.from(cardToJson(data, spec)) };
  }

  /** Like the character itself: the owner's at any rating, anyone else's only in the viewer's ratings. */
  async avatar(userId: string, id: string, ratings: readonly ContentRating[]): Promise<{ contentType: string; body: Buffer } | null> {
    const row = await this.findVisibleRow(userId, id, ratings);
    if (!row) throw notFound();
    const avatar = row.has_avatar ? await this.findAvatar(id) : null;
    return avatar ? { contentType: avatar.content_type, body: avatar.body } : null;
  }

  toCardData(row: CharacterRow): CharacterCardData {
    const card = row.card;
    return {
      name: row.name,
      description: row.description ?? '',
      personality: row.personality_text ?? row.traits.join(', '),
      scenario: row.scenario,
      first_mes: row.greeting,
      mes_example: row.example_dialogue,
      creator_notes: card.creator_notes ?? '',
      system_prompt: row.system_prompt,
      post_history_instructions: card.post_history_instructions ?? '',
      alternate_greetings: card.alternate_greetings ?? [],
      tags: card.tags ?? [],
      creator: card.creator ?? '',
      character_version: card.character_version ?? '',
      extensions: card.extensions ?? {},
      ...(card.character_book !== undefined ? { character_book: card.character_book } : {}),
      extra: card.extra ?? {},
    };
  }

  /** Counts one of the free plan's monthly character creations, then stores the character. */
  private async insert(character: NewCharacter, imported: boolean): Promise<Character> {
    await this.ledger.consumeCharacterQuota(character.ownerId, `character-create:${character.id}`);
    const row = await this.store.transaction(async ({ characters }, tx) => {
      const inserted = await characters.insert(character);
      await tx.emit(chatEvents.characterCreated, { characterId: character.id, isPublic: character.isPublic, imported }, character.ownerId);
      return inserted;
    });
    return toCharacter(row);
  }

  private findAvatar(id: string): Promise<{ content_type: string; body: Buffer } | null> {
    return this.store.run(({ characters }) => characters.findAvatar(id));
  }
}
