import { Box, Button, Flex, Heading, IconButton, Input, InputGroup, Link, Menu, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { ConversationSummaryFragment } from '../../../gql/graphql';
import { chatErrorHandler, failureToast } from '../chat-errors';
import { filterConversations, formatConversationDate, sortConversations } from '../chat-conversations';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { ConfirmDialog, RenameDialog } from '../../../components/dialogs';
import { ChatIcon } from '../../../components/icons/icons';
import { EditIcon, MoreIcon, PlusIcon, SearchIcon, TrashIcon } from '../../../components/icons/chat-icons';
import { DeleteConversationDocument, RenameConversationDocument } from '../operations';

/** The server's limit for a conversation title; an empty one falls back to 'New Conversation' there. */
const CONVERSATION_TITLE_MAX_LENGTH = 120;

type Pending = { kind: 'rename' | 'delete'; conversation: ConversationSummaryFragment } | null;

function ConversationItem({
  conversation,
  isActive,
  onNavigate,
  onRename,
  onDelete,
}: {
  conversation: ConversationSummaryFragment;
  isActive: boolean;
  onNavigate: () => void;
  onRename: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Box as="li" position="relative" data-testid="conversation-item">
      <Link
        asChild
        display="block"
        ps="3"
        pe="10"
        py="2.5"
        rounded="md"
        color={isActive ? 'purple.100' : 'fg'}
        bg={isActive ? 'purple.900/70' : undefined}
        borderStartWidth="3px"
        borderColor={isActive ? 'purple.400' : 'transparent'}
        _hover={{ bg: isActive ? 'purple.900/70' : 'bg.muted', textDecoration: 'none' }}
      >
        <RouterLink to={`/chat/${conversation.id}`} aria-current={isActive ? 'page' : undefined} onClick={onNavigate}>
          <Text fontWeight="medium" truncate data-testid="conversation-title">
            {conversation.title}
          </Text>
          <Text fontSize="xs" color={isActive ? 'purple.200' : 'fg.muted'} truncate>
            {conversation.characterName ? `${conversation.characterName} · ` : ''}
            <time dateTime={conversation.updatedAt}>{formatConversationDate(conversation.updatedAt, new Date(), i18n.language)}</time>
          </Text>
        </RouterLink>
      </Link>
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          <IconButton
            aria-label={t('chat.sidebar.options', { title: conversation.title })}
            size="xs"
            variant="ghost"
            position="absolute"
            top="2"
            insetEnd="1"
          >
            <MoreIcon />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              <Menu.Item value="rename" onSelect={onRename}>
                <EditIcon boxSize="4" />
                {t('chat.sidebar.rename')}
              </Menu.Item>
              <Menu.Item value="delete" onSelect={onDelete} color="fg.error" _hover={{ bg: 'bg.error', color: 'fg.error' }}>
                <TrashIcon boxSize="4" />
                {t('chat.sidebar.delete')}
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </Box>
  );
}

/** The conversation list: newest first, searchable by title, with new, rename and delete. */
export function ConversationSidebar({
  conversations,
  loading,
  activeId,
  starting,
  onStart,
  onNavigate,
  showHeading = true,
}: {
  conversations: readonly ConversationSummaryFragment[];
  loading: boolean;
  activeId: string | undefined;
  starting: boolean;
  onStart: () => void;
  /** A conversation link was followed (the phone drawer closes). */
  onNavigate: () => void;
  /** False inside the phone drawer, whose own title names the list. */
  showHeading?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { run, pending: busy } = useMutationToast();
  const [search, setSearch] = useState('');
  const [pending, setPending] = useState<Pending>(null);

  const visible = useMemo(() => filterConversations(sortConversations(conversations), search), [conversations, search]);

  const rename = async (title: string) => {
    if (!pending) return;
    const failure = failureToast(t('chat.sidebar.renameFailed'));
    const renamed = await run({
      mutation: RenameConversationDocument,
      variables: { id: pending.conversation.id, title },
      failure,
      handleError: chatErrorHandler(failure),
    });
    if (renamed) setPending(null);
  };

  const remove = async () => {
    if (!pending) return;
    const { id } = pending.conversation;
    const failure = failureToast(t('chat.sidebar.deleteFailed'));
    const deleted = await run({
      mutation: DeleteConversationDocument,
      variables: { id },
      update(cache) {
        cache.evict({ id: cache.identify({ __typename: 'Conversation', id }) });
        cache.gc();
      },
      failure,
      handleError: chatErrorHandler(failure),
    });
    if (!deleted) return;
    setPending(null);
    if (id === activeId) await navigate('/chat', { replace: true });
  };

  return (
    <Flex direction="column" h="full" minH="0" gap="3" p="3">
      <Flex align="center" justify={showHeading ? 'space-between' : 'flex-end'} gap="2">
        {showHeading && (
          <Heading as="h2" size="sm">
            {t('chat.sidebar.heading')}
          </Heading>
        )}
        <Button size="sm" colorPalette="purple" onClick={onStart} loading={starting} data-testid="new-conversation">
          <PlusIcon />
          {t('chat.sidebar.newChat')}
        </Button>
      </Flex>
      <InputGroup startElement={<SearchIcon boxSize="4" color="fg.muted" />}>
        <Input
          type="search"
          size="sm"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={t('chat.sidebar.search')}
          aria-label={t('chat.sidebar.search')}
        />
      </InputGroup>
      <Box flex="1" minH="0" overflowY="auto" mx="-1" px="1">
        {loading && conversations.length === 0 ? (
          <Flex justify="center" py="6" role="status" aria-label={t('chat.sidebar.loading')}>
            <Spinner color="purple.300" />
          </Flex>
        ) : conversations.length === 0 ? (
          <Stack align="center" textAlign="center" gap="3" py="8" px="2">
            <ChatIcon boxSize="8" color="purple.300" />
            <Text fontWeight="medium">{t('chat.sidebar.empty')}</Text>
            <Button size="sm" variant="outline" onClick={onStart} loading={starting}>
              {t('chat.sidebar.startFirst')}
            </Button>
          </Stack>
        ) : visible.length === 0 ? (
          <Text color="fg.muted" fontSize="sm" textAlign="center" py="6" role="status">
            {t('chat.sidebar.noMatch', { search: search.trim() })}
          </Text>
        ) : (
          <Stack as="ul" gap="1" listStyleType="none" m="0" p="0" aria-label={t('chat.sidebar.listLabel')}>
            {visible.map((conversation) => (
              <ConversationItem
                key={conversation.id}
                conversation={conversation}
                isActive={conversation.id === activeId}
                onNavigate={onNavigate}
                onRename={() => setPending({ kind: 'rename', conversation })}
                onDelete={() => setPending({ kind: 'delete', conversation })}
              />
            ))}
          </Stack>
        )}
      </Box>
      <RenameDialog
        key={pending?.kind === 'rename' ? pending.conversation.id : 'closed'}
        title={t('chat.sidebar.renameTitle')}
        label={t('chat.sidebar.renameLabel')}
        maxLength={CONVERSATION_TITLE_MAX_LENGTH}
        open={pending?.kind === 'rename'}
        initialValue={pending?.kind === 'rename' ? pending.conversation.title : ''}
        saving={busy}
        onSave={(title) => void rename(title)}
        onClose={() => setPending(null)}
      />
      <ConfirmDialog
        open={pending?.kind === 'delete'}
        title={t('chat.sidebar.deleteTitle')}
        description={t('chat.sidebar.deleteDescription', { title: pending?.conversation.title ?? '' })}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setPending(null)}
      />
    </Flex>
  );
}
