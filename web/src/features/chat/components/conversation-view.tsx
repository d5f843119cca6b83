import { Button, Center, Flex, Heading, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useCurrentUser } from '../../../auth/auth-context';
import { chatErrorHandler, conversationLoadProblem, describeChatError, failureToast, noConversationToast } from '../chat-errors';
import { conversationHeading } from '../chat-conversations';
import { TOASTS } from '../../../lib/error-toasts';
import { isReplying, streamingMessage } from '../live-reply';
import { showToast, type ToastInput } from '../../../lib/toaster';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { ConfirmDialog } from '../../../components/dialogs';
import type { ConversationSummaryFragment } from '../../../gql/graphql';
import { ReportDialog } from '../../moderation/components/report-dialog';
import { BranchNotice } from './branch-notice';
import { ChatComposer } from './chat-composer';
import { ChatHeader, DemoProviderNotice } from './chat-header';
import {
  ChatCharacterDocument,
  ChatProviderDocument,
  ConversationByIdDocument,
  SendMessageDocument,
  StopReplyDocument,
} from '../operations';
import type { AssistantPersona } from './message-bubble';
import { MessageList, MessageListLoading } from './message-list';
import { useLiveConversation, type ChatMessage } from '../hooks/use-live-conversation';
import { useTreeActions } from '../hooks/use-tree-actions';

/** The selected conversation: header, live message log and composer. Mount one per conversation (key it by id). */
export function ConversationView({
  conversationId,
  conversation,
  onOpenSidebar,
  onDeleted,
}: {
  conversationId: string;
  /** From the sidebar's list; undefined while it loads or when it is not among the member's conversations. */
  conversation: ConversationSummaryFragment | undefined;
  onOpenSidebar: () => void;
  /** The conversation was deleted (here or elsewhere). */
  onDeleted: (id: string) => void;
}) {
  const client = useApolloClient();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { t } = useTranslation();
  const { live, messages, page, loadOlder, placeReturned, refreshBranch } = useLiveConversation(conversationId);
  const { data: providerData } = useQuery(ChatProviderDocument, { errorPolicy: 'all' });
  // A deep link may arrive before the sidebar's list: ask for this conversation too (same cache entry).
  const { data: conversationData } = useQuery(ConversationByIdDocument, { variables: { id: conversationId }, errorPolicy: 'all' });
  const summary = conversation ?? conversationData?.conversation;
  const characterId = summary?.characterId ?? null;
  const { data: characterData } = useQuery(ChatCharacterDocument, {
    variables: { id: characterId ?? '' },
    skip: !characterId,
    errorPolicy: 'all',
  });

  const { run: runSend, pending: isSending } = useMutationToast();
  const { run: runStop, pending: isStopping } = useMutationToast();
  const [needsTokens, setNeedsTokens] = useState(false);
  const [followSignal, setFollowSignal] = useState(0);

  const replying = isReplying(live);
  const streaming = streamingMessage(live);
  const typing = replying || isSending;

  // The sidebar lists the most recently active first: move this one up as replies land.
  const lastActivity = messages.reduce((latest, message) => (message.updatedAt > latest ? message.updatedAt : latest), '');
  useEffect(() => {
    if (!lastActivity) return;
    client.cache.modify<{ updatedAt: string }>({
      id: client.cache.identify({ __typename: 'Conversation', id: conversationId }),
      fields: { updatedAt: (current) => (typeof current === 'string' && current >= lastActivity ? current : lastActivity) },
    });
  }, [client, conversationId, lastActivity]);

  useEffect(() => {
    if (!live.deleted) return;
    onDeleted(conversationId);
    void navigate('/chat', { replace: true });
  }, [conversationId, navigate, onDeleted, live.deleted]);

  const showFailure = useCallback((error: unknown, fallback: ToastInput) => {
    const { toast, needsTokens: outOfTokens } = describeChatError(error, fallback);
    if (toast) showToast(toast);
    if (outOfTokens) setNeedsTokens(true);
  }, []);

  const followReply = useCallback(() => {
    setNeedsTokens(false);
    setFollowSignal((signal) => signal + 1);
  }, []);
  // The AI reply being reported, if any.
  const [reporting, setReporting] = useState<string | null>(null);
  const reportReply = useCallback((message: ChatMessage) => setReporting(message.id), []);
  const tree = useTreeActions({
    conversationId,
    placeReturned,
    refreshBranch,
    showFailure,
    onReplyStarted: followReply,
    onReport: reportReply,
  });
  const lastId = messages[messages.length - 1]?.id;
  const branchPoint = tree.branchPoint !== null && tree.branchPoint === lastId ? tree.branchPoint : null;

  const send = useCallback(
    async (content: string): Promise<boolean> => {
      if (!conversationId) {
        showToast(noConversationToast());
        return false;
      }
      const text = content.trim();
      if (!text || isSending) return false;
      if (replying) {
        showToast(failureToast(t('chat.errors.server.replyBusy')));
        return false;
      }
      const data = await runSend({
        mutation: SendMessageDocument,
        variables: { conversationId, content: text },
        update(cache, { data: sent }) {
          const createdAt = sent?.sendMessage.userMessage.createdAt;
          if (!createdAt) return;
          cache.modify({
            id: cache.identify({ __typename: 'Conversation', id: conversationId }),
            fields: { updatedAt: () => createdAt },
          });
        },
        failure: TOASTS.sendMessageFailed,
        handleError: chatErrorHandler(TOASTS.sendMessageFailed, () => setNeedsTokens(true)),
      });
      if (!data) return false;
      placeReturned([data.sendMessage.userMessage, data.sendMessage.assistantMessage]);
      // Sent from a branch point, the message is a new version: its answer does not count its siblings, a read does.
      if (branchPoint) refreshBranch();
      setNeedsTokens(false);
      setFollowSignal((signal) => signal + 1);
      return true;
    },
    [branchPoint, conversationId, isSending, placeReturned, refreshBranch, replying, runSend, t],
  );

  const stop = useCallback(async () => {
    const stopFailed = failureToast(t('chat.composer.stopFailed'));
    await runStop({
      mutation: StopReplyDocument,
      variables: { conversationId },
      failure: stopFailed,
      handleError: chatErrorHandler(stopFailed),
    });
  }, [conversationId, runStop, t]);

  const character = characterData?.character;
  const characterName = summary?.characterName ?? character?.name ?? null;
  const persona = useMemo<AssistantPersona>(
    () => ({ name: characterName ?? t('chat.assistantName'), avatarUrl: character?.avatar ?? null }),
    [character?.avatar, characterName, t],
  );
  const isDemo = providerData?.chatProvider.isDemo === true;

  // Screen readers hear a finished reply once (the log itself is not live: it changes every few words).
  const [announced, setAnnounced] = useState<{ streamingId: string | undefined; text: string }>({ streamingId: undefined, text: '' });
  if (streaming?.id !== announced.streamingId) {
    const finished = announced.streamingId ? live.messages.find((message) => message.id === announced.streamingId) : undefined;
    const text =
      finished?.status === 'COMPLETE' ? t('chat.message.announceReply', { name: persona.name, text: finished.content }) : announced.text;
    setAnnounced({ streamingId: streaming?.id, text });
  }

  if (page.status === 'error') {
    const notFound = conversationLoadProblem(page.error) === 'notFound';
    return (
      <Center flex="1" p="8">
        <Stack align="center" textAlign="center" gap="3">
          <Heading as="h1" size="lg">
            {notFound ? t('chat.load.notFound') : t('chat.load.failed')}
          </Heading>
          <Text color="fg.muted">{notFound ? t('chat.load.notFoundText') : t('chat.load.failedText')}</Text>
          <Button asChild colorPalette="purple">
            <RouterLink to="/chat">{t('chat.load.back')}</RouterLink>
          </Button>
        </Stack>
      </Center>
    );
  }

  return (
    <Flex direction="column" flex="1" minH="0" data-testid="conversation-view">
      <ChatHeader
        title={summary ? conversationHeading(summary.title) : ''}
        characterName={characterName}
        avatarUrl={character?.avatar}
        typing={typing}
        tokens={user.tokens ?? 0}
        onOpenSidebar={onOpenSidebar}
      />
      {isDemo && <DemoProviderNotice />}
      {page.status === 'loading' ? (
        <MessageListLoading />
      ) : (
        <MessageList
          messages={messages}
          persona={persona}
          hasOlder={page.hasOlder}
          loadingOlder={page.loadingOlder}
          onLoadOlder={() => void loadOlder()}
          canAct={!replying && !tree.acting && !isSending}
          actions={tree.actions}
          followSignal={followSignal}
        />
      )}
      <VisuallyHidden aria-live="polite">{announced.text}</VisuallyHidden>
      <ChatComposer
        pending={isSending}
        replying={replying}
        needsTokens={needsTokens}
        onSend={send}
        onStop={() => void stop()}
        stopping={isStopping}
        notice={branchPoint && <BranchNotice busy={tree.acting} onBackToLatest={() => tree.backToLatest(branchPoint)} />}
      />
      <ReportDialog target={reporting ? { kind: 'REPLY', id: reporting } : null} onClose={() => setReporting(null)} />
      <ConfirmDialog
        open={tree.deleting !== null}
        title={t('chat.tree.delete.title')}
        description={t('chat.tree.delete.description')}
        confirmLabel={t('chat.tree.delete.confirm')}
        busy={tree.acting}
        onConfirm={tree.confirmDelete}
        onClose={tree.cancelDelete}
      />
    </Flex>
  );
}
