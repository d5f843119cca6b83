import type { SqlSession, Transaction } from '@app/kit';
import type {
  MessageStatus,
  ModerationState,
  PageRequest,
  Story,
  StoryActionKind,
  StoryGenre,
  StoryLanguage,
  StoryMapNode,
  StoryPassage,
  StoryTone,
} from '@app/schema';
import { STOPPED_REPLY_CHARGED_FROM_CHARS } from '@app/schema';
import { type KeysetRows, readKeysetPage } from '../keyset-page';

/** A featured character as the story keeps it: the narrator still knows them after the character is edited or deleted. */
export interface StoryCharacter {
  id: string;
  name: string;
  description: string;
  personality: string;
  scenario: string;
}

export interface StoryRow {
  id: string;
  owner_id: string;
  title: string;
  premise: string;
  genre: StoryGenre | null;
  tone: StoryTone | null;
  language: StoryLanguage;
  characters: StoryCharacter[];
  current_passage_id: string | null;
  passage_count: number;
  created_at: Date;
  updated_at: Date;
  last_played_at: Date;
}

export interface PassageRow {
  id: string;
  seq: string;
  story_id: string;
  owner_id: string;
  parent_id: string | null;
  depth: number;
  action_kind: StoryActionKind;
  action: string | null;
  content: string;
  choices: string[];
  status: MessageStatus;
  model: string | null;
  error_code: string | null;
  debit_key: string | null;
  save_point: string | null;
  moderation_state: ModerationState;
  created_at: Date;
  updated_at: Date;
}

/** A passage as the branch map reads it: its first words instead of its text. */
export interface MapRow {
  id: string;
  parent_id: string | null;
  depth: number;
  action_kind: StoryActionKind;
  action: string | null;
  excerpt: string;
  status: MessageStatus;
  save_point: string | null;
  moderation_state: ModerationState;
  created_at: Date;
}

export interface NewStory {
  id: string;
  ownerId: string;
  title: string;
  premise: string;
  genre: StoryGenre | null;
  tone: StoryTone | null;
  language: StoryLanguage;
  characters: StoryCharacter[];
}

export interface NewPassage {
  id: string;
  storyId: string;
  ownerId: string;
  parentId: string | null;
  depth: number;
  actionKind: StoryActionKind;
  action: string | null;
  model: string;
  debitKey: string;
  leaseMs: number;
}

/** How a streaming passage ended: its text before the choices block, and the choices. */
export interface PassageOutcome {
  content: string;
  choices: string[];
  status: Exclude<MessageStatus, 'streaming'>;
  errorCode: string | null;
}

/** The repository's public face, so the rules can be unit-tested against an in-memory fake. */
export type StoriesData = { [Method in keyof StoriesRepository]: StoriesRepository[Method] };

/** How the stories' code reaches its tables: the chat store, or a fake in unit tests. */
export interface StoriesStore {
  run<T>(work: (repositories: { stories: StoriesData }) => Promise<T>): Promise<T>;
  transaction<T>(work: (repositories: { stories: StoriesData }, tx: Transaction) => Promise<T>): Promise<T>;
}

/** How many characters of a passage the branch map shows. */
const EXCERPT_LENGTH = 120;

const STORY_COLUMNS = `"id", "owner_id", "title", "premise", "genre", "tone", "language", "characters", "current_passage_id", "passage_count",
  "created_at", "updated_at", "last_played_at"`;
const PASSAGE_COLUMNS = `"id", "seq", "story_id", "owner_id", "parent_id", "depth", "action_kind", "action", "content", "choices", "status",
  "model", "error_code", "debit_key", "save_point", "moderation_state", "created_at", "updated_at"`;
const prefixed = (alias: string, columns: string) =>
  columns
    .split(',')
    .map((column) => `${alias}.${column.trim()}`)
    .join(', ');

export function toStory(row: StoryRow): Story {
  return {
    id: row.id,
    ownerId: row.owner_id,
    title: row.title,
    premise: row.premise,
    genre: row.genre,
    tone: row.tone,
    language: row.language,
    characterIds: row.characters.map((character) => character.id),
    characterNames: row.characters.map((character) => character.name),
    currentPassageId: row.current_passage_id,
    passageCount: row.passage_count,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    lastPlayedAt: new Date(row.last_played_at).toISOString(),
  };
}

export function toPassage(row: PassageRow): StoryPassage {
  // A removed passage keeps its place in the tree, but none of its text is served.
  const isRemoved = row.moderation_state === 'removed';
  return {
    id: row.id,
    storyId: row.story_id,
    parentId: row.parent_id,
    seq: Number(row.seq),
    depth: row.depth,
    actionKind: row.action_kind,
    action: row.action,
    content: isRemoved ? '' : row.content,
    choices: isRemoved ? [] : row.choices,
    status: row.status,
    model: row.model,
    errorCode: row.error_code,
    savePoint: row.save_point,
    moderationState: row.moderation_state,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function toMapNode(row: MapRow): StoryMapNode {
  return {
    id: row.id,
    parentId: row.parent_id,
    depth: row.depth,
    actionKind: row.action_kind,
    action: row.action,
    excerpt: row.moderation_state === 'removed' ? '' : row.excerpt,
    status: row.status,
    savePoint: row.save_point,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** SQL for stories and their passages; every member-facing query names the owner. */
export class StoriesRepository {
  constructor(private readonly session: SqlSession) {}

  /** A page of the member's stories, most recently played first. */
  listByOwner(ownerId: string, request: PageRequest, defaultSize: number): Promise<KeysetRows<StoryRow>> {
    return readKeysetPage<StoryRow>(
      this.session,
      { table: `"chat"."stories"`, columns: STORY_COLUMNS, sortedBy: `"last_played_at"`, where: `"owner_id" = $1`, params: [ownerId] },
      request,
      defaultSize,
    );
  }

  /** Cheap: one member keeps at most STORY_LIMITS.storiesPerMember, found through the owner's index. */
  async countByOwner(ownerId: string): Promise<number> {
    const rows = await this.session.query<{ n: string }>(`SELECT count(*) AS "n" FROM "chat"."stories" WHERE "owner_id" = $1`, [ownerId]);
    return Number(rows[0]?.n ?? 0);
  }

  /** With `lockIn` (the open transaction, as proof there is one), the row stays locked until it ends. */
  async find(id: string, ownerId: string, lockIn?: Transaction): Promise<StoryRow | null> {
    const rows = await this.session.query<StoryRow>(
      `SELECT ${STORY_COLUMNS} FROM "chat"."stories" WHERE "id" = $1 AND "owner_id" = $2${lockIn ? ' FOR UPDATE' : ''}`,
      [id, ownerId],
    );
    return rows[0] ?? null;
  }

  /**
   * Holds the member's story starts to one at a time until the transaction ends, so a burst cannot count the same
   * free places twice (PostgreSQL's transaction-scoped advisory lock, keyed by the member).
   */
  async lockStartsOf(ownerId: string, _within: Transaction): Promise<void> {
    await this.session.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`chat.story.start:${ownerId}`]);
  }

  async insert(story: NewStory): Promise<StoryRow> {
    const rows = await this.session.query<StoryRow>(
      `INSERT INTO "chat"."stories" ("id", "owner_id", "title", "premise", "genre", "tone", "language", "characters")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${STORY_COLUMNS}`,
      [story.id, story.ownerId, story.title, story.premise, story.genre, story.tone, story.language, JSON.stringify(story.characters)],
    );
    return rows[0]!;
  }

  async rename(id: string, ownerId: string, title: string): Promise<StoryRow | null> {
    const rows = await this.session.query<StoryRow>(
      `UPDATE "chat"."stories" SET "title" = $3, "updated_at" = now() WHERE "id" = $1 AND "owner_id" = $2 RETURNING ${STORY_COLUMNS}`,
      [id, ownerId, title],
    );
    return rows[0] ?? null;
  }

  async delete(id: string, ownerId: string): Promise<boolean> {
    return (await this.session.execute(`DELETE FROM "chat"."stories" WHERE "id" = $1 AND "owner_id" = $2`, [id, ownerId])) > 0;
  }

  /** The member reads on from `passageId` now: it becomes the current passage, and the story was just played. */
  async moveTo(id: string, ownerId: string, passageId: string): Promise<StoryRow | null> {
    const rows = await this.session.query<StoryRow>(
      `UPDATE "chat"."stories" SET "current_passage_id" = $3, "last_played_at" = now(), "updated_at" = now()
       WHERE "id" = $1 AND "owner_id" = $2 RETURNING ${STORY_COLUMNS}`,
      [id, ownerId, passageId],
    );
    return rows[0] ?? null;
  }

  /** A passage was just added: it is counted and becomes the current one. */
  async recordNewPassage(id: string, passageId: string): Promise<StoryRow> {
    const rows = await this.session.query<StoryRow>(
      `UPDATE "chat"."stories" SET "current_passage_id" = $2, "passage_count" = "passage_count" + 1, "last_played_at" = now(),
         "updated_at" = now()
       WHERE "id" = $1 RETURNING ${STORY_COLUMNS}`,
      [id, passageId],
    );
    return rows[0]!;
  }

  async touch(id: string): Promise<void> {
    await this.session.execute(`UPDATE "chat"."stories" SET "updated_at" = now() WHERE "id" = $1`, [id]);
  }

  /** With `lockIn` (the open transaction, as proof there is one), the row stays locked until it ends. */
  async findPassage(id: string, storyId: string, ownerId: string, lockIn?: Transaction): Promise<PassageRow | null> {
    const rows = await this.session.query<PassageRow>(
      `SELECT ${PASSAGE_COLUMNS} FROM "chat"."story_passages" WHERE "id" = $1 AND "story_id" = $2 AND "owner_id" = $3${lockIn ? ' FOR UPDATE' : ''}`,
      [id, storyId, ownerId],
    );
    return rows[0] ?? null;
  }

  /** The passages from the story's opening down to `passageId`, in reading order; empty when it is not the member's. */
  path(passageId: string, storyId: string, ownerId: string): Promise<PassageRow[]> {
    return this.session.query<PassageRow>(
      `WITH RECURSIVE "up" AS (
         SELECT ${PASSAGE_COLUMNS} FROM "chat"."story_passages" WHERE "id" = $1 AND "story_id" = $2 AND "owner_id" = $3
         UNION ALL
         SELECT ${prefixed('p', PASSAGE_COLUMNS)} FROM "chat"."story_passages" p JOIN "up" ON p."id" = "up"."parent_id"
       )
       SELECT ${PASSAGE_COLUMNS} FROM "up" ORDER BY "depth"`,
      [passageId, storyId, ownerId],
    );
  }

  /** Every passage of the member's story, oldest first, without full text. */
  map(storyId: string, ownerId: string): Promise<MapRow[]> {
    return this.session.query<MapRow>(
      `SELECT "id", "parent_id", "depth", "action_kind", "action", left("content", ${EXCERPT_LENGTH}) AS "excerpt", "status", "save_point",
         "moderation_state", "created_at"
       FROM "chat"."story_passages" WHERE "story_id" = $1 AND "owner_id" = $2 ORDER BY "seq"`,
      [storyId, ownerId],
    );
  }

  async streamingIn(storyId: string): Promise<PassageRow | null> {
    const rows = await this.session.query<PassageRow>(
      `SELECT ${PASSAGE_COLUMNS} FROM "chat"."story_passages" WHERE "story_id" = $1 AND "status" = 'streaming' LIMIT 1`,
      [storyId],
    );
    return rows[0] ?? null;
  }

  /** Whether a passage of the story kept its charge: written whole, or stopped once it had said enough (decision 036). */
  async hasPaidPassage(storyId: string): Promise<boolean> {
    const rows = await this.session.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM "chat"."story_passages" WHERE "story_id" = $1
         AND ("status" = 'complete' OR ("status" = 'cancelled' AND char_length(btrim("content")) >= $2))) AS "found"`,
      [storyId, STOPPED_REPLY_CHARGED_FROM_CHARS],
    );
    return Boolean(rows[0]?.found);
  }

  /** Passages the member started in the last minute, across stories (the pace limit). */
  async passagesInLastMinute(ownerId: string): Promise<number> {
    const rows = await this.session.query<{ n: string }>(
      `SELECT count(*) AS "n" FROM "chat"."story_passages" WHERE "owner_id" = $1 AND "created_at" > now() - interval '1 minute'`,
      [ownerId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async insertPassage(passage: NewPassage): Promise<PassageRow> {
    const rows = await this.session.query<PassageRow>(
      `INSERT INTO "chat"."story_passages" ("id", "story_id", "owner_id", "parent_id", "depth", "action_kind", "action", "status", "model",
         "debit_key", "lease_until")
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'streaming', $8, $9, now() + make_interval(secs => $10::int / 1000.0))
       RETURNING ${PASSAGE_COLUMNS}`,
      [
        passage.id,
        passage.storyId,
        passage.ownerId,
        passage.parentId,
        passage.depth,
        passage.actionKind,
        passage.action,
        passage.model,
        passage.debitKey,
        passage.leaseMs,
      ],
    );
    return rows[0]!;
  }

  /** Names a passage as a save point (null: no longer one). */
  async setSavePoint(id: string, storyId: string, ownerId: string, label: string | null): Promise<PassageRow | null> {
    const rows = await this.session.query<PassageRow>(
      `UPDATE "chat"."story_passages" SET "save_point" = $4, "updated_at" = now()
       WHERE "id" = $1 AND "story_id" = $2 AND "owner_id" = $3 RETURNING ${PASSAGE_COLUMNS}`,
      [id, storyId, ownerId, label],
    );
    return rows[0] ?? null;
  }

  /** Saves partial text and renews the lease; false when the passage is no longer streaming (taken over by the sweeper). */
  async saveProgress(id: string, content: string, leaseMs: number): Promise<boolean> {
    const saved = await this.session.execute(
      `UPDATE "chat"."story_passages" SET "content" = $2, "lease_until" = now() + make_interval(secs => $3::int / 1000.0), "updated_at" = now()
       WHERE "id" = $1 AND "status" = 'streaming'`,
      [id, content, leaseMs],
    );
    return saved > 0;
  }

  /** Ends a streaming passage; null when it had already ended (another process finished or failed it). */
  async finishPassage(id: string, outcome: PassageOutcome): Promise<PassageRow | null> {
    const rows = await this.session.query<PassageRow>(
      `UPDATE "chat"."story_passages" SET "content" = $2, "choices" = $3, "status" = $4, "error_code" = $5, "lease_until" = NULL,
         "updated_at" = now()
       WHERE "id" = $1 AND "status" = 'streaming' RETURNING ${PASSAGE_COLUMNS}`,
      [id, outcome.content, JSON.stringify(outcome.choices), outcome.status, outcome.errorCode],
    );
    return rows[0] ?? null;
  }

  /** Streaming passages whose lease ran out: their process died or lost its database. */
  orphanedPassages(limit: number): Promise<PassageRow[]> {
    return this.session.query<PassageRow>(
      `SELECT ${PASSAGE_COLUMNS} FROM "chat"."story_passages" WHERE "status" = 'streaming' AND "lease_until" < now() ORDER BY "lease_until" LIMIT $1`,
      [limit],
    );
  }

  /** A moderator's decision on a passage. */
  async setPassageModerationState(id: string, state: ModerationState): Promise<void> {
    await this.session.execute(`UPDATE "chat"."story_passages" SET "moderation_state" = $2 WHERE "id" = $1`, [id, state]);
  }
}
