import type { SqlSession, Transaction } from '@app/kit';
import type { Conversation, Message, MessageStatus, ModerationState, PageRequest, Swipe } from '@app/schema';
import { type KeysetRows, readKeysetPage } from '../keyset-page';

export interface ConversationRow {
  id: string;
  owner_id: string;
  title: string;
  character_id: string | null;
  character_snapshot: Record<string, unknown> | null;
  summary: string | null;
  summary_upto_seq: string | null;
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
  swipe_index: number;
  swipes: Swipe[];
  debit_key: string | null;
  moderation_state: ModerationState;
  created_at: Date;
  updated_at: Date;
}

/** An assistant reply as moderators see it: with its conversation's owner and character, and the member's message it answered. */
export interface ReplyForModeration {
  id: string;
  owner_id: string;
  content: string;
  swipes: Swipe[];
  swipe_index: number;
  moderation_state: ModerationState;
  character_name: string | null;
  context: string | null;
  created_at: Date;
}

const CONVERSATION_COLUMNS = `"id", "owner_id", "title", "character_id", "character_snapshot", "summary", "summary_upto_seq", "created_at", "updated_at"`;
const MESSAGE_COLUMNS = `"id", "seq", "conversation_id", "owner_id", "role", "content", "status", "model", "error_code", "swipe_index", "swipes",
  "debit_key", "moderation_state", "created_at", "updated_at"`;

export function toConversation(row: ConversationRow): Conversation {
  const snapshotName = row.character_snapshot?.name;
  return {
    id: row.id,
    ownerId: row.owner_id,
    title: row.title,
    characterId: row.character_id,
    characterName: typeof snapshotName === 'string' ? snapshotName : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function toMessage(row: MessageRow): Message {
  // A removed reply keeps its place in the conversation, but none of its text is served.
  const isRemoved = row.moderation_state === 'removed';
  return {
    id: row.id,
    conversationId: row.conversation_id,
    seq: Number(row.seq),
    role: row.role,
    content: isRemoved ? '' : row.content,
    status: row.status,
    model: row.model,
    errorCode: row.error_code,
    swipeIndex: row.swipe_index,
    swipes: isRemoved ? row.swipes.map((swipe) => ({ ...swipe, content: '' })) : row.swipes,
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
  swipes: Swipe[];
  swipeIndex: number;
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

  /** The newest `limit` messages before `beforeSeq`, oldest first, plus whether older ones exist. */
  async page(conversationId: string, limit: number, beforeSeq: number | null): Promise<{ rows: MessageRow[]; hasOlder: boolean }> {
    const rows = await this.session.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM "chat"."messages" WHERE "conversation_id" = $1 AND ($2::bigint IS NULL OR "seq" < $2)
       ORDER BY "seq" DESC LIMIT $3`,
      [conversationId, beforeSeq, limit + 1],
    );
    const hasOlder = rows.length > limit;
    return { rows: rows.slice(0, limit).reverse(), hasOlder };
  }

  /** Messages before `beforeSeq` (all when null), oldest first, for building a prompt. */
  async history(conversationId: string, beforeSeq: number, limit: number): Promise<MessageRow[]> {
    const rows = await this.session.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM "chat"."messages" WHERE "conversation_id" = $1 AND "seq" < $2 ORDER BY "seq" DESC LIMIT $3`,
      [conversationId, beforeSeq, limit],
    );
    return rows.reverse();
  }

  /** With `lockIn` (the open transaction, as proof there is one), the row stays locked until it ends. */
  async findMessage(id: string, ownerId: string | null, lockIn?: Transaction): Promise<MessageRow | null> {
    const rows = await this.session.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM "chat"."messages" WHERE "id" = $1 AND ($2::uuid IS NULL OR "owner_id" = $2)${lockIn ? ' FOR UPDATE' : ''}`,
      [id, ownerId],
    );
    return rows[0] ?? null;
  }

  async lastMessage(conversationId: string): Promise<MessageRow | null> {
    const rows = await this.session.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM "chat"."messages" WHERE "conversation_id" = $1 ORDER BY "seq" DESC LIMIT 1`,
      [conversationId],
    );
    return rows[0] ?? null;
  }

  async streamingIn(conversationId: string): Promise<MessageRow | null> {
    const rows = await this.session.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM "chat"."messages" WHERE "conversation_id" = $1 AND "status" = 'streaming' LIMIT 1`,
      [conversationId],
    );
    return rows[0] ?? null;
  }

  async insertMessage(message: NewMessage): Promise<MessageRow> {
    const rows = await this.session.query<MessageRow>(
      `INSERT INTO "chat"."messages" ("id", "conversation_id", "owner_id", "role", "content", "status", "model", "swipes", "swipe_index",
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
        JSON.stringify(message.swipes),
        message.swipeIndex,
        message.debitKey,
        message.leaseMs,
      ],
    );
    return rows[0]!;
  }

  /** Starts a new swipe on an assistant message (regenerate). */
  async startSwipe(id: string, swipes: Swipe[], model: string, debitKey: string, leaseMs: number): Promise<MessageRow> {
    const rows = await this.session.query<MessageRow>(
      `UPDATE "chat"."messages" SET "swipes" = $2, "swipe_index" = $3, "content" = '', "status" = 'streaming', "model" = $4, "error_code" = NULL,
         "debit_key" = $5, "lease_until" = now() + make_interval(secs => $6::int / 1000.0), "updated_at" = now()
       WHERE "id" = $1 RETURNING ${MESSAGE_COLUMNS}`,
      [id, JSON.stringify(swipes), swipes.length - 1, model, debitKey, leaseMs],
    );
    return rows[0]!;
  }

  /** Saves partial text and renews the lease; false when the reply is no longer streaming (taken over by the sweeper). */
  async saveProgress(id: string, swipeIndex: number, content: string, leaseMs: number): Promise<boolean> {
    const saved = await this.session.execute(
      `UPDATE "chat"."messages" SET "content" = $3, "swipes" = jsonb_set("swipes", ARRAY[$2::text, 'content'], to_jsonb($3::text)),
         "lease_until" = now() + make_interval(secs => $4::int / 1000.0), "updated_at" = now()
       WHERE "id" = $1 AND "status" = 'streaming' AND "swipe_index" = $2::int`,
      [id, swipeIndex, content, leaseMs],
    );
    return saved > 0;
  }

  /** Ends a streaming reply; null when it had already ended (another process finished or failed it). */
  async finish(
    id: string,
    swipeIndex: number,
    outcome: { content: string; status: MessageStatus; errorCode: string | null },
  ): Promise<MessageRow | null> {
    const rows = await this.session.query<MessageRow>(
      `UPDATE "chat"."messages" SET "content" = $3, "status" = $4, "error_code" = $5, "lease_until" = NULL, "updated_at" = now(),
         "swipes" = jsonb_set(jsonb_set(jsonb_set("swipes", ARRAY[$2::text, 'content'], to_jsonb($3::text)),
           ARRAY[$2::text, 'status'], to_jsonb($4::text)), ARRAY[$2::text, 'errorCode'], COALESCE(to_jsonb($5::text), 'null'::jsonb))
       WHERE "id" = $1 AND "status" = 'streaming' AND "swipe_index" = $2::int RETURNING ${MESSAGE_COLUMNS}`,
      [id, swipeIndex, outcome.content, outcome.status, outcome.errorCode],
    );
    return rows[0] ?? null;
  }

  async selectSwipe(id: string, index: number): Promise<MessageRow> {
    const rows = await this.session.query<MessageRow>(
      `UPDATE "chat"."messages" SET "swipe_index" = $2::int, "content" = "swipes" -> $2::int ->> 'content',
         "status" = "swipes" -> $2::int ->> 'status', "model" = "swipes" -> $2::int ->> 'model', "error_code" = "swipes" -> $2::int ->> 'errorCode',
         "updated_at" = now()
       WHERE "id" = $1 RETURNING ${MESSAGE_COLUMNS}`,
      [id, index],
    );
    return rows[0]!;
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
      `SELECT m."id", c."owner_id", m."content", m."swipes", m."swipe_index", m."moderation_state", m."created_at",
         COALESCE(c."character_snapshot" ->> 'name', ch."name") AS "character_name",
         (SELECT u."content" FROM "chat"."messages" u
          WHERE u."conversation_id" = m."conversation_id" AND u."role" = 'user' AND u."seq" < m."seq"
          ORDER BY u."seq" DESC LIMIT 1) AS "context"
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

  /** Streaming replies whose lease ran out: their process died or lost its database. */
  orphanedReplies(limit: number): Promise<MessageRow[]> {
    return this.session.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM "chat"."messages" WHERE "status" = 'streaming' AND "lease_until" < now() ORDER BY "lease_until" LIMIT $1`,
      [limit],
    );
  }
}
