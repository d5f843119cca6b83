import { useApolloClient } from '@apollo/client/react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToastInput } from '../../../lib/toaster';
import {
  BranchFromDocument,
  ContinueReplyDocument,
  DeleteMessageDocument,
  EditMessageDocument,
  RegenerateReplyDocument,
  SelectSwipeDocument,
  SwitchBranchDocument,
} from '../operations';
import type { MessageActions } from '../components/message-bubble';
import type { ChatMessage } from './use-live-conversation';

/**
 * The actions on the messages of a conversation tree: versions (regenerate, continue, edit, switch), deletion and
 * branches. Messages a mutation writes or chooses are shown at once; anything that changes the branch below them is
 * read again.
 */
export function useTreeActions({
  conversationId,
  placeReturned,
  refreshBranch,
  showFailure,
  onReplyStarted,
  onReport,
}: {
  conversationId: string;
  placeReturned: (messages: readonly ChatMessage[]) => void;
  refreshBranch: () => void;
  showFailure: (error: unknown, fallback: ToastInput) => void;
  /** A new reply (or version of one) is being written. */
  onReplyStarted: () => void;
  onReport: (message: ChatMessage) => void;
}) {
  const client = useApolloClient();
  const { t } = useTranslation();
  const [acting, setActing] = useState(false);
  /** The message whose deletion waits for the member's confirmation. */
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  /** Where the member branched from: until the next message, the branch shown ends there on purpose. */
  const [branchPoint, setBranchPoint] = useState<string | null>(null);

  const failed = useCallback(
    (key: 'edit' | 'delete' | 'branch' | 'continue' | 'regenerate' | 'swipe'): ToastInput => ({
      title: t('chat.tree.failed.title'),
      description: t(`chat.tree.failed.${key}`),
      variant: 'destructive',
    }),
    [t],
  );

  /** Runs one action at a time; false when it failed (its toast is shown). */
  const act = useCallback(
    async (run: () => Promise<void>, fallback: ToastInput): Promise<boolean> => {
      setActing(true);
      try {
        await run();
        return true;
      } catch (error) {
        showFailure(error, fallback);
        return false;
      } finally {
        setActing(false);
      }
    },
    [showFailure],
  );

  const regenerate = useCallback(
    (message: ChatMessage) =>
      act(async () => {
        const { data } = await client.mutate({ mutation: RegenerateReplyDocument, variables: { conversationId, messageId: message.id } });
        if (data) placeReturned([data.regenerateReply]);
        onReplyStarted();
      }, failed('regenerate')),
    [act, client, conversationId, failed, onReplyStarted, placeReturned],
  );

  const continueReply = useCallback(
    (message: ChatMessage) =>
      act(async () => {
        const { data } = await client.mutate({ mutation: ContinueReplyDocument, variables: { messageId: message.id } });
        if (data) placeReturned([data.continueReply]);
        onReplyStarted();
      }, failed('continue')),
    [act, client, failed, onReplyStarted, placeReturned],
  );

  const edit = useCallback(
    (message: ChatMessage, content: string) =>
      act(async () => {
        const { data } = await client.mutate({ mutation: EditMessageDocument, variables: { messageId: message.id, content } });
        if (data) placeReturned(data.editMessage.reply ? [data.editMessage.message, data.editMessage.reply] : [data.editMessage.message]);
        refreshBranch();
        if (data?.editMessage.reply) onReplyStarted();
      }, failed('edit')),
    [act, client, failed, onReplyStarted, placeReturned, refreshBranch],
  );

  const selectSwipe = useCallback(
    (message: ChatMessage, index: number) =>
      act(async () => {
        const { data } = await client.mutate({ mutation: SelectSwipeDocument, variables: { messageId: message.id, index } });
        if (data) placeReturned([data.selectSwipe]);
        refreshBranch();
      }, failed('swipe')),
    [act, client, failed, placeReturned, refreshBranch],
  );

  const branchFrom = useCallback(
    (message: ChatMessage) =>
      act(async () => {
        await client.mutate({ mutation: BranchFromDocument, variables: { messageId: message.id } });
        setBranchPoint(message.id);
        refreshBranch();
      }, failed('branch')),
    [act, client, failed, refreshBranch],
  );

  const backToLatest = useCallback(
    (messageId: string) =>
      act(async () => {
        await client.mutate({ mutation: SwitchBranchDocument, variables: { messageId } });
        setBranchPoint(null);
        refreshBranch();
      }, failed('branch')),
    [act, client, failed, refreshBranch],
  );

  const confirmDelete = useCallback(async () => {
    if (!deleting) return;
    const deleted = await act(async () => {
      await client.mutate({ mutation: DeleteMessageDocument, variables: { messageId: deleting.id } });
      refreshBranch();
    }, failed('delete'));
    if (deleted) setDeleting(null);
  }, [act, client, deleting, failed, refreshBranch]);

  const actions = useMemo<MessageActions>(
    () => ({
      onRegenerate: (message) => void regenerate(message),
      onContinue: (message) => void continueReply(message),
      onSelectSwipe: (message, index) => void selectSwipe(message, index),
      onEdit: edit,
      onDelete: setDeleting,
      onBranchFrom: (message) => void branchFrom(message),
      onReport,
    }),
    [branchFrom, continueReply, edit, onReport, regenerate, selectSwipe],
  );

  return {
    actions,
    acting,
    deleting,
    cancelDelete: () => setDeleting(null),
    confirmDelete: () => void confirmDelete(),
    branchPoint,
    backToLatest: (messageId: string) => void backToLatest(messageId),
  };
}
