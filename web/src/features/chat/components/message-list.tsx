import { Box, Button, Center, Heading, Spinner, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useCallback, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ChatIcon } from '../../../components/icons/icons';
import { MessageBubble, type AssistantPersona, type MessageActions } from './message-bubble';
import type { ChatMessage } from '../hooks/use-live-conversation';

/** Within this many pixels of the bottom, new text keeps the view pinned to the bottom. */
const NEAR_BOTTOM_PX = 120;
/** Within this many pixels of the top, the previous page loads. */
const NEAR_TOP_PX = 80;

/**
 * The scrolling message log. New text scrolls into view only when the member is already near the
 * bottom; loading an older page keeps whatever was on screen in place.
 */
export function MessageList({
  messages,
  persona,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  canAct,
  actions,
  followSignal,
}: {
  messages: ChatMessage[];
  persona: AssistantPersona;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  canAct: boolean;
  actions: MessageActions;
  /** Changes when the member sends: jump to the bottom whatever the position. */
  followSignal: number;
}) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const isNearBottom = useRef(true);
  const olderAnchor = useRef<{ firstId: string | undefined; height: number; top: number } | null>(null);
  const firstId = messages[0]?.id;

  const requestOlder = useCallback(() => {
    const element = scrollRef.current;
    if (!element || !hasOlder || loadingOlder) return;
    olderAnchor.current = { firstId, height: element.scrollHeight, top: element.scrollTop };
    onLoadOlder();
  }, [firstId, hasOlder, loadingOlder, onLoadOlder]);

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    isNearBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
    if (element.scrollTop < NEAR_TOP_PX) requestOlder();
  };

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const anchor = olderAnchor.current;
    if (anchor && anchor.firstId !== firstId) {
      // An older page went in above: keep the same messages under the reader's eyes.
      element.scrollTop = element.scrollHeight - anchor.height + anchor.top;
      olderAnchor.current = null;
      return;
    }
    if (isNearBottom.current) element.scrollTop = element.scrollHeight;
  }, [messages, firstId]);

  useLayoutEffect(() => {
    if (!loadingOlder && olderAnchor.current?.firstId === firstId) olderAnchor.current = null;
  }, [loadingOlder, firstId]);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || followSignal === 0) return;
    isNearBottom.current = true;
    element.scrollTop = element.scrollHeight;
  }, [followSignal]);

  const lastId = messages[messages.length - 1]?.id;

  return (
    <Box
      ref={scrollRef}
      onScroll={onScroll}
      flex="1"
      minH="0"
      overflowY="auto"
      overscrollBehavior="contain"
      px={{ base: '3', md: '6' }}
      py="4"
      data-testid="message-list"
    >
      {hasOlder && (
        <Center mb="4">
          <Button size="xs" variant="ghost" loading={loadingOlder} loadingText={t('chat.list.loadingOlder')} onClick={requestOlder}>
            {t('chat.list.loadOlder')}
          </Button>
        </Center>
      )}
      {messages.length === 0 ? (
        <Center h="full" minH="48">
          <Stack align="center" textAlign="center" gap="2" color="fg.muted">
            <ChatIcon boxSize="10" color="purple.300" />
            <Heading as="h2" size="md" color="fg">
              {t('chat.list.emptyTitle')}
            </Heading>
            <Text>{t('chat.list.emptyText')}</Text>
          </Stack>
        </Center>
      ) : (
        <Stack role="log" aria-label={t('chat.list.label')} aria-live="off" gap="3" maxW="3xl" mx="auto">
          {messages.map((message) => (
            <MessageBubble
              key={message.id}
              message={message}
              persona={persona}
              isLast={message.id === lastId}
              canAct={canAct}
              actions={actions}
            />
          ))}
        </Stack>
      )}
    </Box>
  );
}

export function MessageListLoading() {
  const { t } = useTranslation();
  return (
    <Center flex="1" role="status" aria-live="polite">
      <Spinner color="purple.300" size="lg" />
      <VisuallyHidden>{t('chat.list.loading')}</VisuallyHidden>
    </Center>
  );
}
