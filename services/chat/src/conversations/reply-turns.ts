import type { Bus } from '@app/kit';
import { type ChatLiveUpdate, chatEvents, chatLiveSubject } from '@app/schema';
import type { ChatStore } from '../chat.store';
import type { GenerationRef, TurnKind } from '../generation/generation';
import { toMessage } from './conversations.repository';

/** Shows a change in a conversation to its live subscribers (the gateway fans it out to GraphQL subscriptions). */
export const publishChatUpdate = (bus: Bus, update: ChatLiveUpdate): Promise<void> =>
  bus.publishLive(chatLiveSubject(update.conversationId), update);

const replyRef = (ref: GenerationRef) => ({
  conversationId: ref.subjectId,
  messageId: ref.turnId,
  userId: ref.userId,
  swipeIndex: ref.variant,
});

/** Chat replies as the generation engine writes them: an assistant message of a conversation (one version of a reply). */
export function replyTurns(store: ChatStore, bus: Bus): TurnKind {
  return {
    kind: 'chat_reply',
    policyPath: 'chat.reply',
    refundReason: 'Chat reply failed',
    finalize: (text) => ({ content: text }),
    saveProgress: (ref, text, leaseMs) => store.run(({ conversations }) => conversations.saveProgress(ref.turnId, text, leaseMs)),
    async finish(ref, outcome, record) {
      const row = await store.transaction(async ({ conversations }, tx) => {
        const finished = await conversations.finish(ref.turnId, outcome);
        if (!finished) return null;
        await conversations.touch(ref.subjectId);
        if ('completed' in record) await tx.emit(chatEvents.replyCompleted, { ...replyRef(ref), ...record.completed }, ref.userId);
        else await tx.emit(chatEvents.replyFailed, { ...replyRef(ref), ...record.failed }, ref.userId);
        return finished;
      });
      if (row) {
        const versions = await store.run(({ conversations }) => conversations.versionsOf([row]));
        await publishChatUpdate(bus, { type: 'message', conversationId: ref.subjectId, message: toMessage(row, versions.get(row.id)) });
      }
      return row !== null;
    },
    async orphaned(limit) {
      const rows = await store.run(({ conversations }) => conversations.orphanedReplies(limit));
      return rows.map((row) => ({
        kind: 'chat_reply' as const,
        subjectId: row.conversation_id,
        turnId: row.id,
        userId: row.owner_id,
        variant: row.version_index,
        debitKey: row.debit_key ?? '',
        content: row.content,
        startedAt: new Date(row.created_at),
      }));
    },
    saveSummary: (conversationId, summary, work) =>
      store.run(({ conversations }) =>
        conversations.saveSummary(
          conversationId,
          summary,
          work.basedOnUptoSeq,
          work.turns.map((turn) => turn.seq),
        ),
      ),
    publishTyping: (conversationId, typing) => publishChatUpdate(bus, { type: 'typing', conversationId, typing }),
    publishDelta: (ref, offset, text, sentAt) =>
      publishChatUpdate(bus, {
        type: 'delta',
        conversationId: ref.subjectId,
        messageId: ref.turnId,
        swipeIndex: ref.variant,
        offset,
        text,
        ...(sentAt !== undefined ? { sentAt } : {}),
      }),
  };
}
