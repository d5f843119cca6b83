import { Avatar, Box, Button, Flex, HStack, IconButton, Text, VisuallyHidden } from '@chakra-ui/react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMessageTime } from '../../lib/chat-conversations';
import { FlagIcon } from '../icons';
import { ChevronLeftIcon, ChevronRightIcon, RegenerateIcon } from './chat-icons';
import { FormattedText } from './formatted-text';
import type { ChatMessage } from './use-live-conversation';

export interface AssistantPersona {
  name: string;
  avatarUrl?: string | null;
}

export interface MessageActions {
  onRegenerate: () => void;
  onSelectSwipe: (message: ChatMessage, index: number) => void;
  /** Reports an AI reply to the moderators. */
  onReport?: (message: ChatMessage) => void;
}

function TypingDots() {
  return (
    <HStack as="span" gap="1" py="1.5" aria-label="Writing a reply" role="img">
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

function personaInitial(name: string): string {
  return Array.from(name.trim())[0]?.toUpperCase() ?? 'A';
}

/**
 * One message: the member's on the right, the character's on the left with its avatar and reply
 * controls (Report among them). A reply a moderator removed arrives without its text and says so.
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
  /** The newest message: its reply can be regenerated. */
  isLast: boolean;
  /** False while a send or a reply is under way: version controls wait. */
  canAct: boolean;
  actions: MessageActions;
}) {
  const { t } = useTranslation();
  const isUser = message.role === 'USER';
  const isRemoved = message.moderationState === 'REMOVED';
  const time = formatMessageTime(message.createdAt);
  const isStreaming = message.status === 'STREAMING';
  const isFailed = message.status === 'FAILED';
  const isCancelled = message.status === 'CANCELLED';
  const hasVersions = !isUser && message.swipeCount > 1;
  const canReport = !isUser && !isRemoved && !isStreaming && !isFailed && Boolean(message.content) && Boolean(actions.onReport);
  const hasControls = isCancelled || isFailed || hasVersions || canReport || (!isUser && isLast && !isStreaming);

  return (
    <Flex
      as="article"
      justify={isUser ? 'flex-end' : 'flex-start'}
      gap="2.5"
      data-testid="chat-message"
      data-role={message.role.toLowerCase()}
      data-status={message.status.toLowerCase()}
      aria-label={isUser ? 'Your message' : `${persona.name}'s reply`}
      aria-busy={isStreaming || undefined}
      className="group"
    >
      {!isUser && (
        <Avatar.Root size="sm" colorPalette="purple" flexShrink={0} mt="1">
          <Avatar.Fallback>{personaInitial(persona.name)}</Avatar.Fallback>
          {persona.avatarUrl && <Avatar.Image src={persona.avatarUrl} alt="" />}
        </Avatar.Root>
      )}
      <Flex direction="column" align={isUser ? 'flex-end' : 'flex-start'} maxW={{ base: '85%', md: '75%' }} minW="0" gap="1">
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
              This reply failed and your token was refunded.
            </Text>
          )}
        </Box>
        <HStack gap="1.5" minH={hasControls ? '6' : undefined} color="fg.muted" fontSize="xs" flexWrap="wrap">
          <Text asChild opacity={0} transition="opacity 0.15s" _groupHover={{ opacity: 1 }} _groupFocusWithin={{ opacity: 1 }}>
            <time dateTime={message.createdAt}>{time}</time>
          </Text>
          {isCancelled && (
            <Text as="span" fontStyle="italic" data-testid="reply-stopped">
              Stopped
            </Text>
          )}
          {hasVersions && (
            <HStack gap="0.5">
              <IconButton
                aria-label="Previous version"
                size="2xs"
                variant="ghost"
                disabled={!canAct || message.swipeIndex <= 0 || isStreaming}
                onClick={() => actions.onSelectSwipe(message, message.swipeIndex - 1)}
              >
                <ChevronLeftIcon />
              </IconButton>
              <Text as="span" minW="10" textAlign="center" data-testid="swipe-counter">
                <VisuallyHidden>Version </VisuallyHidden>
                {message.swipeIndex + 1} / {message.swipeCount}
              </Text>
              <IconButton
                aria-label="Next version"
                size="2xs"
                variant="ghost"
                disabled={!canAct || message.swipeIndex >= message.swipeCount - 1 || isStreaming}
                onClick={() => actions.onSelectSwipe(message, message.swipeIndex + 1)}
              >
                <ChevronRightIcon />
              </IconButton>
            </HStack>
          )}
          {!isUser && isLast && !isStreaming && !isFailed && (
            <IconButton aria-label="Regenerate reply" size="2xs" variant="ghost" disabled={!canAct} onClick={actions.onRegenerate}>
              <RegenerateIcon />
            </IconButton>
          )}
          {canReport && (
            <IconButton
              aria-label={t('report.replyAction')}
              title={t('report.replyAction')}
              size="2xs"
              variant="ghost"
              onClick={() => actions.onReport?.(message)}
            >
              <FlagIcon />
            </IconButton>
          )}
          {isFailed && isLast && (
            <Button size="2xs" variant="outline" colorPalette="red" disabled={!canAct} onClick={actions.onRegenerate}>
              <RegenerateIcon />
              Retry
            </Button>
          )}
        </HStack>
      </Flex>
    </Flex>
  );
});
