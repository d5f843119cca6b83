import type { SqlSession, Transaction } from '@app/kit';
import type { Conversation, Message, MessageStatus, ModerationState, PageRequest, PromptReport, SamplerSettings } from '@app/schema';
import { type KeysetRows, readKeysetPage } from '../keyset-page';

export interface ConversationRow {
  id: string;
  owner_id: string;
  title: string;
  character_id: string | null;
  character_snapshot: Record<string, unknown> | null;
  summary: string | null;
  summary_upto_seq: string | null;
  active_leaf_id: string | null;
  sampling: SamplerSettings | null;
  model: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface MessageRow {
  id: string;
  seq: string;
  conversation_id: string;
  owner_id: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  model: string | null;
  error_code: string | null;
  parent_id: string | null;
  edited: boolean;
  prompt_report: PromptReport | null;
  debit_key: string | null;
  moderation_state: ModerationState;
  created_at: Date;
  updated_at: Date;
}

/** A message with its versions (its siblings of the same role, itself included, oldest first). */
export interface MessageWithVersions {
  row: MessageRow;
  versions: MessageRow[];
}

/** An assistant reply as moderators see it: with its conversation's owner and character, and the member's message it answered. */
export interface ReplyForModeration {
  id: string;
  owner_id: string;
  content: string;
  moderation_state: ModerationState;
  character_name: string | null;
  context: string | null;
  created_at: Date;
}

const CONVERSATION_COLUMNS = `"id", "owner_id", "title", "character_id", "character_snapshot", "summary", "summary_upto_seq", "active_leaf_id",
  "sampling", "model", "created_at", "updated_at"`;
const MESSAGE_COLUMNS = `"id", "seq", "conversation_id", "owner_id", "role", "content", "status", "model", "error_code", "parent_id", "edited",
  "prompt_report", "debit_key", "moderation_state", "created_at", "updated_at"`;
/** MESSAGE_COLUMNS of the table aliased `m`. */
const M_COLUMNS = MESSAGE_COLUMNS.replace(/"(\w+)"/g, 'm."$1"');

/**
 * The branch that ends at `leaf` (a message id), walked from its end towards its first message, `taken` counting the
 * messages `counts` lets through; the walk stops once `stopAfter` of them are taken. Every message of a branch was
 * written after its parent, so `seq` falls along the walk.
 */
const BRANCH_TO = (leaf: string, counts = 'true', stopAfter = 'NULL') => `WITH RECURSIVE "branch" AS (
    SELECT ${M_COLUMNS}, (CASE WHEN ${counts.replace(/"seq"/g, 'm."seq"')} THEN 1 ELSE 0 END) AS "taken"
    FROM "chat"."messages" m WHERE m."id" = ${leaf}
    UNION ALL
    SELECT ${M_COLUMNS}, b."taken" + (CASE WHEN ${counts.replace(/"seq"/g, 'm."seq"')} THEN 1 ELSE 0 END)
    FROM "chat"."messages" m JOIN "branch" b ON m."id" = b."parent_id"
    WHERE ${stopAfter}::int IS NULL OR b."taken" < ${stopAfter}::int
  )`;

export function toConversation(row: ConversationRow): Conversation {
  const snapshotName = row.character_snapshot?.name;
  return {
    id: row.id,
    ownerId: row.owner_id,
    title: row.title,
    characterId: row.character_id,
    characterName: typeof snapshotName === 'string' ? snapshotName : null,
    activeLeafId: row.active_leaf_id,
    sampling: row.sampling,
    model: row.model,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const servedContent = (row: MessageRow) => (row.moderation_state === 'removed' ? '' : row.content);

/** A message as members see it; `versions` are its siblings of the same role (itself included), oldest first. */
export function toMessage(row: MessageRow, versions: readonly MessageRow[] = [row]): Message {
  const all = versions.some((version) => version.id === row.id) ? versions : [...versions, row];
  return {
    id: row.id,
    conversationId: row.conversation_id,
    seq: Number(row.seq),
    role: row.role,
    // A removed reply keeps its place in the conversation, but none of its text is served.
    content: servedContent(row),
    status: row.status,
    model: row.model,
    errorCode: row.error_code,
    parentId: row.parent_id,
    swipeIndex: all.findIndex((version) => version.id === row.id),
    swipes: all.map((version) => ({
      id: version.id,
      content: servedContent(version),
      status: version.status,
      model: version.model,
      errorCode: version.error_code,
      createdAt: new Date(version.created_at).toISOString(),
    })),
    edited: row.edited,
    promptReport: row.prompt_report,
    moderationState: row.moderation_state,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export interface NewMessage {
  id: string;
  conversationId: string;
  ownerId: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  model: string | null;
  parentId: string | null;
  edited?: boolean;
  debitKey: string | null;
  leaseMs: number | null;
}

/** SQL for conversations and messages; every member-facing query names the owner. */
export class ConversationsRepository {
  constructor(private readonly session: SqlSession) {}

  /** A page of the member's conversations, most recently active first. */
  listByOwner(ownerId: string, request: PageRequest, defaultSize: number): Promise<KeysetRows<ConversationRow>> {
    return readKeysetPage<ConversationRow>(
      this.session,
      {
        table: `"chat"."conversations"`,
        columns: CONVERSATION_COLUMNS,
        sortedBy: `"updated_at"`,
        where: `"owner_id" = $1`,
        params: [ownerId],
      },
      request,
      defaultSize,
    );
  }

  /** Cheap: one member keeps at most 1000, found through the owner's index. */
  async countByOwner(ownerId: string): Promise<number> {
    const rows = await this.session.query<{ n: string }>(`SELECT count(*) AS "n" FROM "chat"."conversations" WHERE "owner_id" = $1`, [
      ownerId,
    ]);
    return Number(rows[0]?.n ?? 0);
  }

  /** With `lockIn` (the open transaction, as proof there is one), the row stays locked until it ends. */
  async find(id: string, ownerId: string, lockIn?: Transaction): Promise<ConversationRow | null> {
    const rows = await this.session.query<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM "chat"."conversations" WHERE "id" = $1 AND "owner_id" = $2${lockIn ? ' FOR UPDATE' : ''}`,
      [id, ownerId],
    );
    return rows[0] ?? null;
  }

  async insert(row: {
    id: string;
    ownerId: string;
    title: string;
    characterId: string | null;
    snapshot: Record<string, unknown> | null;
  }): Promise<ConversationRow> {
    const rows = await this.session.query<ConversationRow>(
      `INSERT INTO "chat"."conversations" ("id", "owner_id", "title", "character_id", "character_snapshot")
       VALUES ($1, $2, $3, $4, $5) RETURNING ${CONVERSATION_COLUMNS}`,
      [row.id, row.ownerId, row.title, row.characterId, row.snapshot ? JSON.stringify(row.snapshot) : null],
    );
    return rows[0]!;
  }

  /**
   * Holds the member's conversation creations to one at a time until the transaction ends, so a burst cannot
   * count the same free places twice (PostgreSQL's transaction-scoped advisory lock, keyed by the member).
   */
  async lockCreationsOf(ownerId: string, _within: Transaction): Promise<void> {
    await this.session.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`chat.conversation.create:${ownerId}`]);
  }

  /** How many conversations the member keeps, how many started in the last minute, and when the oldest of those leaves it. */
  async creationLoad(ownerId: string): Promise<{ total: number; lastMinute: number; secondsUntilSlot: number }> {
    const rows = await this.session.query<{ total: string; last_minute: string; seconds_until_slot: string | null }>(
      `SELECT count(*) AS "total",
              count(*) FILTER (WHERE "created_at" > now() - interval '1 minute') AS "last_minute",
              extract(epoch FROM min("created_at") FILTER (WHERE "created_at" > now() - interval '1 minute') + interval '1 minute' - now())
                AS "seconds_until_slot"
       FROM "chat"."conversations" WHERE "owner_id" = $1`,
      [ownerId],
    );
    const row = rows[0];
    return {
      total: Number(row?.total ?? 0),
      lastMinute: Number(row?.last_minute ?? 0),
      secondsUntilSlot: Math.max(1, Math.ceil(Number(row?.seconds_until_slot ?? 0))),
    };
  }

  async rename(id: string, ownerId: string, title: string): Promise<ConversationRow | null> {
    const rows = await this.session.query<ConversationRow>(
      `UPDATE "chat"."conversations" SET "title" = $3, "updated_at" = now() WHERE "id" = $1 AND "owner_id" = $2 RETURNING ${CONVERSATION_COLUMNS}`,
      [id, ownerId, title],
    );
    return rows[0] ?? null;
  }

  async delete(id: string, ownerId: string): Promise<boolean> {
    return (await this.session.execute(`DELETE FROM "chat"."conversations" WHERE "id" = $1 AND "owner_id" = $2`, [id, ownerId])) > 0;
  }

  async touch(id: string): Promise<void> {
    await this.session.execute(`UPDATE "chat"."conversations" SET "updated_at" = now() WHERE "id" = $1`, [id]);
  }

  async updateSnapshot(id: string, snapshot: Record<string, unknown>): Promise<void> {
    await this.session.execute(`UPDATE "chat"."conversations" SET "character_snapshot" = $2 WHERE "id" = $1`, [
      id,
      JSON.stringify(snapshot),
    ]);
  }

  /**
   * Keeps a summary that folded `foldedSeqs` into the one that covered up to `basedOnUptoSeq`; false, keeping
   * nothing, when that summary was dropped or replaced meanwhile, or a moderator removed one of those turns.
   */
  async saveSummary(id: string, summary: string, basedOnUptoSeq: number | null, foldedSeqs: readonly number[]): Promise<boolean> {
    const saved = await this.session.execute(
      `UPDATE "chat"."conversations" SET "summary" = $2, "summary_upto_seq" = $3
       WHERE "id" = $1 AND "summary_upto_seq" IS NOT DISTINCT FROM $4::bigint
         AND NOT EXISTS (SELECT 1 FROM "chat"."messages"
           WHERE "conversation_id" = $1 AND "seq" = ANY($5::bigint[]) AND "moderation_state" = 'removed')`,
      [id, summary, Math.max(...foldedSeqs), basedOnUptoSeq, foldedSeqs],
    );
    return saved > 0;
  }

  /** Drops the conversation's rolling summary if it folded in this message; the next replies rebuild it from what remains. */
  async forgetSummaryCovering(messageId: string): Promise<boolean> {
    const forgotten = await this.session.execute(
      `UPDATE "chat"."conversations" c SET "summary" = NULL, "summary_upto_seq" = NULL
       FROM "chat"."messages" m
       WHERE m."id" = $1 AND c."id" = m."conversation_id" AND c."summary_upto_seq" >= m."seq"`,
      [messageId],
    );
    return forgotten > 0;
  }

  /** The newest `limit` messages of the branch shown before `beforeSeq`, oldest first, plus whether older ones exist. */
  async page(conversationId: string, limit: number, beforeSeq: number | null): Promise<{ rows: MessageRow[]; hasOlder: boolean }> {
    const rows = await this.session.query<MessageRow>(
      `${BRANCH_TO(`(SELECT "active_leaf_id" FROM "chat"."conversations" WHERE "id" = $1)`, `($2::bigint IS NULL OR "seq" < $2)`, '$3')}
       SELECT ${MESSAGE_COLUMNS} FROM "branch" WHERE $2::bigint IS NULL OR "seq" < $2 ORDER BY "seq" DESC LIMIT $3`,
      [conversationId, beforeSeq, limit + 1],
    );
    const hasOlder = rows.length > limit;
    return { rows: rows.slice(0, limit).reverse(), hasOlder };
  }

  /** The newest `limit` messages of the branch that ends at `leafId` (itself included), oldest first, for a prompt. */
  async branch(leafId: string, limit: number): Promise<MessageRow[]> {
    const rows = await this.session.query<MessageRow>(
      `${BRANCH_TO('$1::uuid', 'true', '$2')} SELECT ${MESSAGE_COLUMNS} FROM "branch" ORDER BY "seq" DESC LIMIT $2`,
      [leafId, limit],
    );
    return rows.reverse();
  }

  /** Whether the message numbered `seq` lies on the branch that ends at `leafId` (a summary holds only on its own branch). */
  async branchHas(leafId: string, seq: number): Promise<boolean> {
    // The walk stops at the first message at or before `seq`: older ones cannot be it.
    const rows = await this.session.query(`${BRANCH_TO('$1::uuid', `"seq" <= $2`, '1')} SELECT 1 FROM "branch" WHERE "seq" = $2 LIMIT 1`, [
      leafId,
      seq,
    ]);
    return rows.length > 0;
  }

  /** The versions of each message: its siblings of the same role, itself included, oldest first. */
  async versionsOf(rows: readonly MessageRow[]): Promise<Map<string, MessageRow[]>> {
    const versions = new Map<string, MessageRow[]>();
    if (!rows.length) return versions;
    const siblings = await this.session.query<MessageRow>(
      `SELECT ${M_COLUMNS} FROM "chat"."messages" m
       JOIN (SELECT DISTINCT "conversation_id", "parent_id", "role" FROM "chat"."messages" WHERE "id" = ANY($1::uuid[])) k
         ON m."conversation_id" = k."conversation_id" AND m."role" = k."role" AND m."parent_id" IS NOT DISTINCT FROM k."parent_id"
       ORDER BY m."seq"`,
      [rows.map((row) => row.id)],
    );
    for (const row of rows) {
      versions.set(
        row.id,
        siblings.filter((s) => s.conversation_id === row.conversation_id && s.role === row.role && s.parent_id === row.parent_id),
      );
    }
    return versions;
  }

  /** How many messages of `role` follow `parentId`: the versions a new one joins. */
  async countVersionsUnder(parentId: string, role: 'user' | 'assistant'): Promise<number> {
    const rows = await this.session.query<{ n: string }>(
      `SELECT count(*) AS "n" FROM "chat"."messages" WHERE "parent_id" = $1 AND "role" = $2`,
      [parentId, role],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** With `lockIn` (the open transaction, as proof there is one), the row stays locked until it ends. */
  async findMessage(id: string, ownerId: string | null, lockIn?: Transaction): Promise<MessageRow | null> {
    const rows = await this.session.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM "chat"."messages" WHERE "id" = $1 AND ($2::uuid IS NULL OR "owner_id" = $2)${lockIn ? ' FOR UPDATE' : ''}`,
      [id, ownerId],
    );
    return rows[0] ?? null;
  }

  /** The last message of the branch shown. */
  async activeLeaf(conversationId: string): Promise<MessageRow | null> {
    const rows = await this.session.query<MessageRow>(
      `SELECT ${M_COLUMNS} FROM "chat"."messages" m JOIN "chat"."conversations" c ON c."active_leaf_id" = m."id" WHERE c."id" = $1`,
      [conversationId],
    );
    return rows[0] ?? null;
  }

  /** The newest message below `messageId` (itself when none): where its newest branch ends. */
  async newestBelow(messageId: string): Promise<string> {
    const rows = await this.session.query<{ id: string }>(
      `WITH RECURSIVE "below" AS (
         SELECT "id", "seq" FROM "chat"."messages" WHERE "id" = $1
         UNION ALL
         SELECT m."id", m."seq" FROM "chat"."messages" m JOIN "below" b ON m."parent_id" = b."id"
       )
       SELECT "id" FROM "below" ORDER BY "seq" DESC LIMIT 1`,
      [messageId],
    );
    return rows[0]?.id ?? messageId;
  }

  /** The newest message of the conversation, whichever branch it is on. */
  async newestIn(conversationId: string): Promise<string | null> {
    const rows = await this.session.query<{ id: string }>(
      `SELECT "id" FROM "chat"."messages" WHERE "conversation_id" = $1 ORDER BY "seq" DESC LIMIT 1`,
      [conversationId],
    );
    return rows[0]?.id ?? null;
  }

  async setActiveLeaf(conversationId: string, leafId: string | null): Promise<ConversationRow> {
    const rows = await this.session.query<ConversationRow>(
      `UPDATE "chat"."conversations" SET "active_leaf_id" = $2, "updated_at" = now() WHERE "id" = $1 RETURNING ${CONVERSATION_COLUMNS}`,
      [conversationId, leafId],
    );
    return rows[0]!;
  }

  /** How many messages a deletion of `messageId` takes: it and everything below it. */
  async countSubtree(messageId: string): Promise<number> {
    const rows = await this.session.query<{ count: string }>(
      `WITH RECURSIVE "below" AS (
         SELECT "id" FROM "chat"."messages" WHERE "id" = $1
         UNION ALL
         SELECT m."id" FROM "chat"."messages" m JOIN "below" b ON m."parent_id" = b."id"
       )
       SELECT count(*) AS "count" FROM "below"`,
      [messageId],
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** Deletes a message; its descendants go with it (the parent reference cascades). */
  async deleteMessage(id: string): Promise<void> {
    await this.session.execute(`DELETE FROM "chat"."messages" WHERE "id" = $1`, [id]);
  }

  /** Whether `ancestorId` is `messageId` or lies above it. */
  async isAtOrAbove(ancestorId: string, messageId: string): Promise<boolean> {
    const rows = await this.session.query(`${BRANCH_TO('$1::uuid')} SELECT 1 FROM "branch" WHERE "id" = $2 LIMIT 1`, [
      messageId,
      ancestorId,
    ]);
    return rows.length > 0;
  }

  async streamingIn(conversationId: string): Promise<MessageRow | null> {
    const rows = await this.session.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM "chat"."messages" WHERE "conversation_id" = $1 AND "status" = 'streaming' LIMIT 1`,
      [conversationId],
    );
    return rows[0] ?? null;
  }

  /** Adds a message at the end of a branch; it becomes the end of the branch shown. */
  async insertMessage(message: NewMessage): Promise<MessageRow> {
    const rows = await this.session.query<MessageRow>(
      `INSERT INTO "chat"."messages" ("id", "conversation_id", "owner_id", "role", "content", "status", "model", "parent_id", "edited",
         "debit_key", "lease_until")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $11::int IS NULL THEN NULL ELSE now() + make_interval(secs => $11::int / 1000.0) END)
       RETURNING ${MESSAGE_COLUMNS}`,
      [
        message.id,
        message.conversationId,
        message.ownerId,
        message.role,
        message.content,
        message.status,
        message.model,
        message.parentId,
        message.edited ?? false,
        message.debitKey,
        message.leaseMs,
      ],
    );
    await this.session.execute(`UPDATE "chat"."conversations" SET "active_leaf_id" = $2 WHERE "id" = $1`, [
      message.conversationId,
      message.id,
    ]);
    return rows[0]!;
  }

  /** What made it into a reply's prompt, kept for the member's context view. */
  async saveReport(messageId: string, report: PromptReport): Promise<void> {
    await this.session.execute(`UPDATE "chat"."messages" SET "prompt_report" = $2 WHERE "id" = $1`, [messageId, JSON.stringify(report)]);
  }

  async updateSettings(
    id: string,
    ownerId: string,
    sampling: SamplerSettings | null,
    model: string | null,
  ): Promise<ConversationRow | null> {
    const rows = await this.session.query<ConversationRow>(
      `UPDATE "chat"."conversations" SET "sampling" = $3, "model" = $4, "updated_at" = now()
       WHERE "id" = $1 AND "owner_id" = $2 RETURNING ${CONVERSATION_COLUMNS}`,
      [id, ownerId, sampling ? JSON.stringify(sampling) : null, model],
    );
    return rows[0] ?? null;
  }

  /** Saves partial text and renews the lease; false when the reply is no longer streaming (taken over by the sweeper). */
  async saveProgress(id: string, content: string, leaseMs: number): Promise<boolean> {
    const saved = await this.session.execute(
      `UPDATE "chat"."messages" SET "content" = $2, "lease_until" = now() + make_interval(secs => $3::int / 1000.0), "updated_at" = now()
       WHERE "id" = $1 AND "status" = 'streaming'`,
      [id, content, leaseMs],
    );
    return saved > 0;
  }

  /** Ends a streaming reply; null when it had already ended (another process finished or failed it). */
  async finish(id: string, outcome: { content: string; status: MessageStatus; errorCode: string | null }): Promise<MessageRow | null> {
    const rows = await this.session.query<MessageRow>(
      `UPDATE "chat"."messages" SET "content" = $2, "status" = $3, "error_code" = $4, "lease_until" = NULL, "updated_at" = now()
       WHERE "id" = $1 AND "status" = 'streaming' RETURNING ${MESSAGE_COLUMNS}`,
      [id, outcome.content, outcome.status, outcome.errorCode],
    );
    return rows[0] ?? null;
  }

  /** Replies a member started or changed in the last minute (sends and regenerations). */
  async repliesInLastMinute(ownerId: string): Promise<number> {
    const rows = await this.session.query<{ n: string }>(
      `SELECT count(*) AS "n" FROM "chat"."messages" WHERE "owner_id" = $1 AND "role" = 'assistant' AND "updated_at" > now() - interval '1 minute'`,
      [ownerId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Assistant replies whatever their state, for moderators; user messages and unknown ids are left out. */
  repliesForModeration(ids: readonly string[]): Promise<ReplyForModeration[]> {
    return this.session.query<ReplyForModeration>(
      `SELECT m."id", c."owner_id", m."content", m."moderation_state", m."created_at",
         COALESCE(c."character_snapshot" ->> 'name', ch."name") AS "character_name",
         (SELECT u."content" FROM "chat"."messages" u WHERE u."id" = m."parent_id" AND u."role" = 'user') AS "context"
       FROM "chat"."messages" m
       JOIN "chat"."conversations" c ON c."id" = m."conversation_id"
       LEFT JOIN "chat"."characters" ch ON ch."id" = c."character_id"
       WHERE m."id" = ANY($1::uuid[]) AND m."role" = 'assistant'`,
      [ids],
    );
  }

  /** A moderator's decision on a reply; user messages are not moderated here. */
  async setReplyModerationState(id: string, state: ModerationState): Promise<void> {
    await this.session.execute(`UPDATE "chat"."messages" SET "moderation_state" = $2 WHERE "id" = $1 AND "role" = 'assistant'`, [
      id,
      state,
    ]);
  }

  /** Streaming replies whose lease ran out (their process died or lost its database), with their place among their versions. */
  orphanedReplies(limit: number): Promise<(MessageRow & { version_index: number })[]> {
    return this.session.query<MessageRow & { version_index: number }>(
      `SELECT ${M_COLUMNS},
         (SELECT count(*)::int FROM "chat"."messages" s
          WHERE s."conversation_id" = m."conversation_id" AND s."role" = m."role" AND s."parent_id" IS NOT DISTINCT FROM m."parent_id"
            AND s."seq" < m."seq") AS "version_index"
       FROM "chat"."messages" m WHERE m."status" = 'streaming' AND m."lease_until" < now() ORDER BY m."lease_until" LIMIT $1`,
      [limit],
    );
  }
}
