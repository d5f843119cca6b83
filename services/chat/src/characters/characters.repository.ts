import type { SqlSession, Transaction } from '@app/kit';
import type { Character, ContentRating, ModerationState, PageRequest, SamplerSettings } from '@app/schema';
import { type KeysetRows, readKeysetPage } from '../keyset-page';

/** Card fields the platform keeps verbatim for lossless export (Character Card V2/V3). */
export interface StoredCardFields {
  creator_notes?: string;
  post_history_instructions?: string;
  alternate_greetings?: string[];
  tags?: string[];
  creator?: string;
  character_version?: string;
  extensions?: Record<string, unknown>;
  character_book?: unknown;
  extra?: Record<string, unknown>;
}

export interface CharacterRow {
  id: string;
  owner_id: string;
  name: string;
  description: string | null;
  traits: string[];
  personality_text: string | null;
  is_public: boolean;
  scenario: string;
  greeting: string;
  example_dialogue: string;
  system_prompt: string;
  card: StoredCardFields;
  sampling: SamplerSettings | null;
  has_avatar: boolean;
  rating: ContentRating;
  /** Set when a moderator changed the rating: the owner's rating is ignored from then on. */
  rating_locked: boolean;
  moderation_state: ModerationState;
  owner_suspended: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface NewCharacter {
  id: string;
  ownerId: string;
  name: string;
  description: string | null;
  traits: string[];
  personalityText: string | null;
  isPublic: boolean;
  rating: ContentRating;
  scenario: string;
  greeting: string;
  exampleDialogue: string;
  systemPrompt: string;
  card: StoredCardFields;
  sampling?: SamplerSettings | null;
  avatar: { contentType: string; body: Buffer } | null;
}

const COLUMNS = `"id", "owner_id", "name", "description", "traits", "personality_text", "is_public", "scenario", "greeting",
  "example_dialogue", "system_prompt", "card", "sampling", "has_avatar", "rating", "rating_locked", "moderation_state", "owner_suspended",
  "created_at", "updated_at"`;
/** What anyone but the owner may see: public, not hidden or removed by a moderator, its owner not suspended. */
const LISTED = `"is_public" AND "moderation_state" = 'visible' AND NOT "owner_suspended"`;

export function toCharacter(row: CharacterRow): Character {
  return {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    description: row.description,
    avatar: row.has_avatar ? `/api/characters/${row.id}/avatar?v=${new Date(row.updated_at).getTime()}` : null,
    personality: { traits: row.traits },
    isPublic: row.is_public,
    rating: row.rating,
    moderationState: row.moderation_state,
    scenario: row.scenario,
    greeting: row.greeting,
    exampleDialogue: row.example_dialogue,
    systemPrompt: row.system_prompt,
    sampling: row.sampling,
    alternateGreetings: row.card.alternate_greetings ?? [],
    tags: row.card.tags ?? [],
    creator: row.card.creator ?? '',
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** SQL for characters; every query names its owner or the public flag, so ownership is enforced here. */
export class CharactersRepository {
  constructor(private readonly session: SqlSession) {}

  /** A page of the owner's characters, newest first; one a moderator removed is gone for them too. */
  listByOwner(ownerId: string, request: PageRequest, defaultSize: number): Promise<KeysetRows<CharacterRow>> {
    return readKeysetPage<CharacterRow>(
      this.session,
      {
        table: `"chat"."characters"`,
        columns: COLUMNS,
        sortedBy: `"created_at"`,
        where: `"owner_id" = $1 AND "moderation_state" <> 'removed'`,
        params: [ownerId],
      },
      request,
      defaultSize,
    );
  }

  /** Cheap: found through the owner's index. */
  async countByOwner(ownerId: string): Promise<number> {
    const rows = await this.session.query<{ n: string }>(
      `SELECT count(*) AS "n" FROM "chat"."characters" WHERE "owner_id" = $1 AND "moderation_state" <> 'removed'`,
      [ownerId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** A page of what everyone may see in `ratings`, newest first (not counted: that would read every public character). */
  listPublic(ratings: readonly ContentRating[], request: PageRequest, defaultSize: number): Promise<KeysetRows<CharacterRow>> {
    return readKeysetPage<CharacterRow>(
      this.session,
      {
        table: `"chat"."characters"`,
        columns: COLUMNS,
        sortedBy: `"created_at"`,
        where: `${LISTED} AND "rating" = ANY($1::text[])`,
        params: [ratings],
      },
      request,
      defaultSize,
    );
  }

  /**
   * The character if the member owns it (and no moderator removed it), or anyone may see it in one of `ratings`;
   * null ratings: any rating (reads whose contract names none).
   */
  async findVisible(id: string, userId: string, ratings: readonly ContentRating[] | null): Promise<CharacterRow | null> {
    const rows = await this.session.query<CharacterRow>(
      `SELECT ${COLUMNS} FROM "chat"."characters" WHERE "id" = $1 AND "moderation_state" <> 'removed'
         AND ("owner_id" = $2 OR (${LISTED} AND ($3::text[] IS NULL OR "rating" = ANY($3::text[]))))`,
      [id, userId, ratings],
    );
    return rows[0] ?? null;
  }

  /** Characters whatever their state, for moderators. */
  findByIds(ids: readonly string[]): Promise<CharacterRow[]> {
    return this.session.query<CharacterRow>(`SELECT ${COLUMNS} FROM "chat"."characters" WHERE "id" = ANY($1::uuid[])`, [ids]);
  }

  /** With `lockIn` (the open transaction, as proof there is one), the row stays locked until it ends. */
  async findOwned(id: string, ownerId: string, lockIn?: Transaction): Promise<CharacterRow | null> {
    const rows = await this.session.query<CharacterRow>(
      `SELECT ${COLUMNS} FROM "chat"."characters" WHERE "id" = $1 AND "owner_id" = $2 AND "moderation_state" <> 'removed'${lockIn ? ' FOR UPDATE' : ''}`,
      [id, ownerId],
    );
    return rows[0] ?? null;
  }

  async insert(character: NewCharacter): Promise<CharacterRow> {
    const rows = await this.session.query<CharacterRow>(
      `INSERT INTO "chat"."characters" ("id", "owner_id", "name", "description", "traits", "personality_text", "is_public", "scenario",
         "greeting", "example_dialogue", "system_prompt", "card", "has_avatar", "rating", "sampling")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING ${COLUMNS}`,
      [
        character.id,
        character.ownerId,
        character.name,
        character.description,
        JSON.stringify(character.traits),
        character.personalityText,
        character.isPublic,
        character.scenario,
        character.greeting,
        character.exampleDialogue,
        character.systemPrompt,
        JSON.stringify(character.card),
        character.avatar !== null,
        character.rating,
        character.sampling ? JSON.stringify(character.sampling) : null,
      ],
    );
    if (character.avatar) {
      await this.session.execute(`INSERT INTO "chat"."character_avatars" ("character_id", "content_type", "body") VALUES ($1, $2, $3)`, [
        character.id,
        character.avatar.contentType,
        character.avatar.body,
      ]);
    }
    return rows[0]!;
  }

  async update(row: CharacterRow): Promise<CharacterRow> {
    const rows = await this.session.query<CharacterRow>(
      `UPDATE "chat"."characters" SET "name" = $2, "description" = $3, "traits" = $4, "personality_text" = $5, "is_public" = $6,
         "scenario" = $7, "greeting" = $8, "example_dialogue" = $9, "system_prompt" = $10, "rating" = $11, "sampling" = $12,
         "updated_at" = now()
       WHERE "id" = $1 RETURNING ${COLUMNS}`,
      [
        row.id,
        row.name,
        row.description,
        JSON.stringify(row.traits),
        row.personality_text,
        row.is_public,
        row.scenario,
        row.greeting,
        row.example_dialogue,
        row.system_prompt,
        row.rating,
        row.sampling ? JSON.stringify(row.sampling) : null,
      ],
    );
    return rows[0]!;
  }

  async delete(id: string, ownerId: string): Promise<boolean> {
    return (
      (await this.session.execute(
        `DELETE FROM "chat"."characters" WHERE "id" = $1 AND "owner_id" = $2 AND "moderation_state" <> 'removed'`,
        [id, ownerId],
      )) > 0
    );
  }

  async setModerationState(id: string, state: ModerationState): Promise<void> {
    await this.session.execute(`UPDATE "chat"."characters" SET "moderation_state" = $2 WHERE "id" = $1`, [id, state]);
  }

  /** A moderator's rating: it stays, whatever the owner sets later. */
  async lockRating(id: string, rating: ContentRating): Promise<void> {
    await this.session.execute(`UPDATE "chat"."characters" SET "rating" = $2, "rating_locked" = true WHERE "id" = $1`, [id, rating]);
  }

  async setOwnerSuspended(ownerId: string, suspended: boolean): Promise<number> {
    return this.session.execute(`UPDATE "chat"."characters" SET "owner_suspended" = $2 WHERE "owner_id" = $1`, [ownerId, suspended]);
  }

  async findAvatar(id: string): Promise<{ content_type: string; body: Buffer } | null> {
    const rows = await this.session.query<{ content_type: string; body: Buffer | Uint8Array }>(
      `SELECT "content_type", "body" FROM "chat"."character_avatars" WHERE "character_id" = $1`,
      [id],
    );
    const row = rows[0];
    return row ? { content_type: row.content_type, body: Buffer.from(row.body) } : null;
  }
}
