import { Avatar, Box, Button, Flex, HStack, IconButton, Text, VisuallyHidden } from '@chakra-ui/react';
import { memo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ContextReportButton } from '../../chat-settings';
import { formatMessageTime, personaInitial } from '../chat-conversations';
import { FlagIcon } from '../../../components/icons/icons';
import {
  BranchIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  ContinueIcon,
  EditIcon,
  RegenerateIcon,
  TrashIcon,
} from '../../../components/icons/chat-icons';
import { FormattedText } from './formatted-text';
import { MessageEditor } from './message-editor';
import type { ChatMessage } from '../hooks/use-live-conversation';

export interface AssistantPersona {
  name: string;
  avatarUrl?: string | null;
}

export interface MessageActions {
  /** Another version of a reply, beside it (a failed last reply is retried this way). */
  onRegenerate: (message: ChatMessage) => void;
  /** A new version of a reply that carries on from its text. */
  onContinue: (message: ChatMessage) => void;
  onSelectSwipe: (message: ChatMessage, index: number) => void;
  /** Saves an edit as a new version; resolves true when it was saved (the editor then closes). */
  onEdit: (message: ChatMessage, content: string) => Promise<boolean>;
  /** Asks before deleting the message and the messages after it. */
  onDelete: (message: ChatMessage) => void;
  /** Ends the branch shown at the message: the next message sent starts a new branch there. */
  onBranchFrom: (message: ChatMessage) => void;
  /** Reports an AI reply to the moderators. */
  onReport?: (message: ChatMessage) => void;
}

function TypingDots() {
  const { t } = useTranslation();
  return (
    <HStack as="span" gap="1" py="1.5" aria-label={t('chat.message.writing')} role="img">
      {[0, 1, 2].map((dot) => (
        <Box
          key={dot}
          as="span"
          w="1.5"
          h="1.5"
          rounded="full"
          bg="fg.muted"
          animation="pulse"
          animationDuration="1.2s"
          animationDelay={`${dot * 0.2}s`}
        />
      ))}
    </HStack>
  );
}

/** The "< 1 / 2 >" switcher between the versions of a message. */
function VersionSwitcher({ message, disabled, onSelect }: { message: ChatMessage; disabled: boolean; onSelect: (index: number) => void }) {
  const { t } = useTranslation();
  return (
    <HStack gap="0.5">
      <IconButton
        aria-label={t('chat.message.previousVersion')}
        size="2xs"
        variant="ghost"
        disabled={disabled || message.swipeIndex <= 0}
        onClick={() => onSelect(message.swipeIndex - 1)}
      >
        <ChevronLeftIcon />
      </IconButton>
      <Text as="span" minW="10" textAlign="center" data-testid="swipe-counter">
        <VisuallyHidden>{`${t('chat.message.version')} `}</VisuallyHidden>
        {t('chat.message.versionCount', {
          current: message.swipeIndex + 1,
          total: message.swipeCount,
        })}
      </Text>
      <IconButton
        aria-label={t('chat.message.nextVersion')}
        size="2xs"
        variant="ghost"
        disabled={disabled || message.swipeIndex >= message.swipeCount - 1}
        onClick={() => onSelect(message.swipeIndex + 1)}
      >
        <ChevronRightIcon />
      </IconButton>
    </HStack>
  );
}

/** What can be done with a message now, from its state alone. */
function availableActions(message: ChatMessage, isLast: boolean, canReport: boolean) {
  const isReply = message.role === 'ASSISTANT';
  const isRemoved = message.moderationState === 'REMOVED';
  const isFinished = message.status !== 'STREAMING';
  const hasText = message.content.trim().length > 0;
  return {
    edit: isFinished && !isRemoved,
    delete: isFinished,
    branch: isFinished && !isLast,
    // A greeting has no message to answer; a failed last reply offers Retry instead.
    regenerate: isReply && isFinished && !isRemoved && message.parentId !== null && !(message.status === 'FAILED' && isLast),
    continue: isReply && !isRemoved && hasText && (message.status === 'COMPLETE' || message.status === 'CANCELLED'),
    report: canReport,
    // Only a generated reply has a prompt to show; a greeting or a member's edit has none.
    context: isReply && message.parentId !== null && !message.edited && (message.status === 'COMPLETE' || message.status === 'CANCELLED'),
  };
}

type Available = ReturnType<typeof availableActions>;

/** Edit, Delete, Branch from here, Regenerate, Continue, Report: shown on hover and focus, always on touch screens. */
function MessageToolbar({
  message,
  available,
  disabled,
  actions,
  onEdit,
}: {
  message: ChatMessage;
  available: Available;
  disabled: boolean;
  actions: MessageActions;
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const labelled = (label: string) => ({ 'aria-label': label, title: label, size: '2xs' as const, variant: 'ghost' as const });
  return (
    <HStack
      gap="0.5"
      role="group"
      aria-label={t('chat.tree.actions.label')}
      opacity={0}
      transition="opacity 0.15s"
      _groupHover={{ opacity: 1 }}
      _groupFocusWithin={{ opacity: 1 }}
      css={{ '@media (hover: none)': { opacity: 1 } }}
      data-testid="message-actions"
    >
      {available.edit && (
        <IconButton {...labelled(t('chat.tree.actions.edit'))} disabled={disabled} onClick={onEdit} data-action="edit">
          <EditIcon />
        </IconButton>
      )}
      {available.regenerate && (
        <IconButton {...labelled(t('chat.message.regenerate'))} disabled={disabled} onClick={() => actions.onRegenerate(message)}>
          <RegenerateIcon />
        </IconButton>
      )}
      {available.continue && (
        <IconButton {...labelled(t('chat.tree.actions.continue'))} disabled={disabled} onClick={() => actions.onContinue(message)}>
          <ContinueIcon />
        </IconButton>
      )}
      {available.branch && (
        <IconButton {...labelled(t('chat.tree.actions.branch'))} disabled={disabled} onClick={() => actions.onBranchFrom(message)}>
          <BranchIcon />
        </IconButton>
      )}
      {available.delete && (
        <IconButton {...labelled(t('chat.tree.actions.delete'))} disabled={disabled} onClick={() => actions.onDelete(message)}>
          <TrashIcon />
        </IconButton>
      )}
      {available.context && <ContextReportButton messageId={message.id} />}
      {available.report && (
        <IconButton {...labelled(t('report.replyAction'))} onClick={() => actions.onReport?.(message)}>
          <FlagIcon />
        </IconButton>
      )}
    </HStack>
  );
}

/**
 * One message: the member's on the right, the character's on the left with its avatar. Under it, its time, its
 * version switcher and its actions; Edit opens an editor in place. A reply a moderator removed arrives without its
 * text and says so.
 */
export const MessageBubble = memo(function MessageBubble({
  message,
  persona,
  isLast,
  canAct,
  actions,
}: {
  message: ChatMessage;
  persona: AssistantPersona;
  /** The last message of the branch shown. */
  isLast: boolean;
  /** False while a send, an action or a reply is under way: the controls wait. */
  canAct: boolean;
  actions: MessageActions;
}) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const metaRow = useRef<HTMLDivElement>(null);
  const isUser = message.role === 'USER';
  const isRemoved = message.moderationState === 'REMOVED';
  const time = formatMessageTime(message.createdAt, i18n.language);
  const isStreaming = message.status === 'STREAMING';
  const isFailed = message.status === 'FAILED';
  const isCancelled = message.status === 'CANCELLED';
  const canReport = !isUser && !isRemoved && !isStreaming && !isFailed && Boolean(message.content) && Boolean(actions.onReport);
  const available = availableActions(message, isLast, canReport);

  const closeEditor = () => {
    setEditing(false);
    // Back to the actions the editor was opened from.
    requestAnimationFrame(() => metaRow.current?.querySelector<HTMLButtonElement>('[data-action="edit"]')?.focus());
  };
  const save = async (content: string) => {
    setSaving(true);
    const saved = await actions.onEdit(message, content);
    setSaving(false);
    if (saved) setEditing(false);
  };

  return (
    <Flex
      as="article"
      justify={isUser ? 'flex-end' : 'flex-start'}
      gap="2.5"
      data-testid="chat-message"
      data-role={message.role.toLowerCase()}
      data-status={message.status.toLowerCase()}
      aria-label={isUser ? t('chat.message.yours') : t('chat.message.reply', { name: persona.name })}
      aria-busy={isStreaming || undefined}
      className="group"
    >
      {!isUser && (
        <Avatar.Root size="sm" colorPalette="purple" flexShrink={0} mt="1">
          <Avatar.Fallback>{personaInitial(persona.name)}</Avatar.Fallback>
          {persona.avatarUrl && <Avatar.Image src={persona.avatarUrl} alt="" />}
        </Avatar.Root>
      )}
      <Flex
        direction="column"
        align={isUser ? 'flex-end' : 'flex-start'}
        maxW={{ base: '85%', md: '75%' }}
        w={editing ? 'full' : undefined}
        minW="0"
        gap="1"
      >
        {editing ? (
          <MessageEditor
            initial={message.content}
            isUser={isUser}
            saving={saving}
            disabled={!canAct}
            onSave={(content) => void save(content)}
            onCancel={closeEditor}
          />
        ) : (
          <Box
            px="4"
            py="2.5"
            rounded="2xl"
            roundedBottomRight={isUser ? 'sm' : undefined}
            roundedBottomLeft={isUser ? undefined : 'sm'}
            bg={isUser ? 'purple.700' : 'bg.muted'}
            color={isUser ? 'white' : 'fg'}
            borderWidth={isFailed ? '1px' : undefined}
            borderColor={isFailed ? 'red.500' : undefined}
            title={time}
            maxW="full"
            overflowWrap="anywhere"
            data-testid="message-content"
          >
            {isRemoved ? (
              <Text fontStyle="italic" color="fg.muted" data-testid="reply-removed">
                {t('contentState.removedReply')}
              </Text>
            ) : message.content ? (
              <FormattedText content={message.content} streaming={isStreaming} />
            ) : isStreaming ? (
              <TypingDots />
            ) : null}
            {isFailed && (
              <Text fontSize="sm" color="red.300" mt={message.content ? '2' : undefined} data-testid="reply-failed">
                {t('chat.message.failed')}
              </Text>
            )}
          </Box>
        )}
        <HStack
          gap="1.5"
          minH="6"
          color="fg.muted"
          fontSize="xs"
          flexWrap="wrap"
          justify={isUser ? 'flex-end' : 'flex-start'}
          ref={metaRow}
        >
          <Text asChild opacity={0} transition="opacity 0.15s" _groupHover={{ opacity: 1 }} _groupFocusWithin={{ opacity: 1 }}>
            <time dateTime={message.createdAt}>{time}</time>
          </Text>
          {isCancelled && (
            <Text as="span" fontStyle="italic" data-testid="reply-stopped">
              {t('chat.message.stopped')}
            </Text>
          )}
          {!isUser && message.edited && (
            <Text as="span" fontStyle="italic" data-testid="message-edited">
              {t('chat.tree.edited')}
            </Text>
          )}
          {message.swipeCount > 1 && (
            <VersionSwitcher
              message={message}
              disabled={!canAct || isStreaming}
              onSelect={(index) => actions.onSelectSwipe(message, index)}
            />
          )}
          {!editing && (
            <MessageToolbar message={message} available={available} disabled={!canAct} actions={actions} onEdit={() => setEditing(true)} />
          )}
          {isFailed && isLast && (
            <Button size="2xs" variant="outline" colorPalette="red" disabled={!canAct} onClick={() => actions.onRegenerate(message)}>
              <RegenerateIcon />
              {t('chat.message.retry')}
            </Button>
          )}
        </HStack>
      </Flex>
    </Flex>
  );
});
