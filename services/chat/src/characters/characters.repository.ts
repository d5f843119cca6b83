import type { SqlSession, Transaction } from '@app/kit';
import type { Character } from '@app/schema';

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
  has_avatar: boolean;
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
  scenario: string;
  greeting: string;
  exampleDialogue: string;
  systemPrompt: string;
  card: StoredCardFields;
  avatar: { contentType: string; body: Buffer } | null;
}

const COLUMNS = `"id", "owner_id", "name", "description", "traits", "personality_text", "is_public", "scenario", "greeting",
  "example_dialogue", "system_prompt", "card", "has_avatar", "created_at", "updated_at"`;

export function toCharacter(row: CharacterRow): Character {
  return {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    description: row.description,
    avatar: row.has_avatar ? `/api/characters/${row.id}/avatar?v=${new Date(row.updated_at).getTime()}` : null,
    personality: { traits: row.traits },
    isPublic: row.is_public,
    scenario: row.scenario,
    greeting: row.greeting,
    exampleDialogue: row.example_dialogue,
    systemPrompt: row.system_prompt,
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

  listByOwner(ownerId: string): Promise<CharacterRow[]> {
    return this.session.query<CharacterRow>(
      `SELECT ${COLUMNS} FROM "chat"."characters" WHERE "owner_id" = $1 ORDER BY "created_at" DESC LIMIT 500`,
      [ownerId],
    );
  }

  listPublic(limit: number): Promise<CharacterRow[]> {
    return this.session.query<CharacterRow>(
      `SELECT ${COLUMNS} FROM "chat"."characters" WHERE "is_public" ORDER BY "created_at" DESC LIMIT $1`,
      [limit],
    );
  }

  /** The character if the member owns it or it is public. */
  async findVisible(id: string, userId: string): Promise<CharacterRow | null> {
    const rows = await this.session.query<CharacterRow>(
      `SELECT ${COLUMNS} FROM "chat"."characters" WHERE "id" = $1 AND ("owner_id" = $2 OR "is_public")`,
      [id, userId],
    );
    return rows[0] ?? null;
  }

  /** With `lockIn` (the open transaction, as proof there is one), the row stays locked until it ends. */
  async findOwned(id: string, ownerId: string, lockIn?: Transaction): Promise<CharacterRow | null> {
    const rows = await this.session.query<CharacterRow>(
      `SELECT ${COLUMNS} FROM "chat"."characters" WHERE "id" = $1 AND "owner_id" = $2${lockIn ? ' FOR UPDATE' : ''}`,
      [id, ownerId],
    );
    return rows[0] ?? null;
  }

  async insert(character: NewCharacter): Promise<CharacterRow> {
    const rows = await this.session.query<CharacterRow>(
      `INSERT INTO "chat"."characters" ("id", "owner_id", "name", "description", "traits", "personality_text", "is_public", "scenario",
         "greeting", "example_dialogue", "system_prompt", "card", "has_avatar")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
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
         "scenario" = $7, "greeting" = $8, "example_dialogue" = $9, "system_prompt" = $10, "updated_at" = now()
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
      ],
    );
    return rows[0]!;
  }

  async delete(id: string, ownerId: string): Promise<boolean> {
    return (await this.session.execute(`DELETE FROM "chat"."characters" WHERE "id" = $1 AND "owner_id" = $2`, [id, ownerId])) > 0;
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
