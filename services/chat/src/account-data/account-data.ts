import { type Bus, type Database, type SqlSession, type Subscription, UnitOfWork, logger } from '@app/kit';
import { type ChatExportPart, type ExportPage, accountDataEvents, accountDataRpc } from '@app/schema';
import { type PartQuery, readPage } from '@app/kit';

const byOwner = (table: string, select = 'to_jsonb(t)'): PartQuery => ({
  table: `"chat"."${table}"`,
  select,
  where: 't."owner_id" = $1',
  orderBy: ['created_at', 'id'],
});

/** What each part of the export reads; leases and debit keys are the service's bookkeeping, not the member's data. */
const EXPORT_PARTS: Record<ChatExportPart | 'messages', PartQuery> = {
  conversations: byOwner('conversations'),
  // The avatar comes with each character's exported card.
  characters: byOwner('characters'),
  messages: { ...byOwner('messages', `to_jsonb(t) - 'lease_until' - 'debit_key'`), orderBy: ['seq'] },
  stories: byOwner('stories'),
  storyPassages: { ...byOwner('story_passages', `to_jsonb(t) - 'lease_until' - 'debit_key'`), orderBy: ['seq'] },
  // One row at most: who the member plays in chats.
  persona: { ...byOwner('member_personas'), orderBy: ['owner_id'] },
};

/** Chat's side of a member's own data: their conversations, messages, characters, stories and chat persona. */
export class ChatAccountDataRepository {
  constructor(private readonly session: SqlSession) {}

  /** A page of one part of the member's export (messages are a part of their own). */
  async exportPage(part: ChatExportPart | 'messages', userId: string, after: string[] | null, limit: number): Promise<ExportPage> {
    const { rows, next } = await readPage(this.session, EXPORT_PARTS[part], userId, after, limit);
    return { rows, next };
  }

  /** Everything chat keeps by the member, in an order the foreign keys allow; returns how many rows went. */
  async erase(userId: string): Promise<number> {
    let deleted = 0;
    // Decisions a moderator took on the member, their characters or their messages.
    deleted += await this.session.execute(
      `DELETE FROM "chat"."moderation_marks" WHERE "subject_id" = $1
         OR "subject_id" IN (SELECT "id" FROM "chat"."characters" WHERE "owner_id" = $1)
         OR "subject_id" IN (SELECT "id" FROM "chat"."messages" WHERE "owner_id" = $1)
         OR "subject_id" IN (SELECT "id" FROM "chat"."story_passages" WHERE "owner_id" = $1)`,
      [userId],
    );
    // Passages before their stories, so each is counted among the rows erased.
    deleted += await this.session.execute(`DELETE FROM "chat"."story_passages" WHERE "owner_id" = $1`, [userId]);
    deleted += await this.session.execute(`DELETE FROM "chat"."stories" WHERE "owner_id" = $1`, [userId]);
    deleted += await this.session.execute(`DELETE FROM "chat"."messages" WHERE "owner_id" = $1`, [userId]);
    deleted += await this.session.execute(`DELETE FROM "chat"."conversations" WHERE "owner_id" = $1`, [userId]);
    deleted += await this.session.execute(`DELETE FROM "chat"."member_personas" WHERE "owner_id" = $1`, [userId]);
    // Avatars go with their characters; other members' conversations keep their own snapshot of the persona.
    deleted += await this.session.execute(`DELETE FROM "chat"."characters" WHERE "owner_id" = $1`, [userId]);
    // A charge of a deleted account has no one left to refund.
    deleted += await this.session.execute(`DELETE FROM "chat"."pending_charges" WHERE "user_id" = $1`, [userId]);
    deleted += await this.session.execute(
      `DELETE FROM "chat"."outbox" WHERE "published_at" IS NOT NULL AND strpos("envelope"::text, $1) > 0`,
      [userId],
    );
    return deleted;
  }
}

export type ChatAccountDataStore = UnitOfWork<ChatAccountDataRepository>;

export const openChatAccountDataStore = (db: Database): ChatAccountDataStore =>
  new UnitOfWork(db, (session) => new ChatAccountDataRepository(session));

/** Chat's export endpoints: the gateway assembles the archive, a page at a time. */
export function serveChatAccountData(bus: Bus, store: ChatAccountDataStore): Promise<Subscription[]> {
  return Promise.all([
    bus.serve(accountDataRpc.exportChat, ({ userId, part, after, limit }) =>
      store.run((data) => data.exportPage(part, userId, after, limit)),
    ),
    bus.serve(accountDataRpc.exportChatMessages, ({ userId, after, limit }) =>
      store.run((data) => data.exportPage('messages', userId, after, limit)),
    ),
  ]);
}

/**
 * Erases a deleted member's chat data from identity's event; deleting by owner is idempotent, so a redelivered event
 * (or one replayed from the stream's start) finds nothing left and acknowledges.
 */
export function startChatErasure(bus: Bus, store: ChatAccountDataStore): Promise<Subscription> {
  return bus.consumeEvents(
    { subjects: [accountDataEvents.accountDeleted.type], durableName: 'chat-account-erasure', deliver: 'all' },
    async (event) => {
      const { userId } = accountDataEvents.accountDeleted.data.parse(event.data);
      const deleted = await store.transaction((data) => data.erase(userId));
      logger.info({ eventId: event.id, rows: deleted }, 'chat data of a deleted account erased');
    },
  );
}
