import { Avatar, Badge, Box, Flex, Heading, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ChatSettingsMenu } from '../../chat-settings';
import { personaInitial } from '../chat-conversations';
import { CoinsIcon } from '../../../components/icons/icons';
import { SidebarIcon } from '../../../components/icons/chat-icons';

export function OpenSidebarButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <IconButton aria-label={t('chat.header.openSidebar')} variant="ghost" size="sm" hideFrom="md" onClick={onClick}>
      <SidebarIcon />
    </IconButton>
  );
}

/** Shown whenever the scripted demo responder writes the replies, so it is never taken for AI. */
export function DemoProviderNotice() {
  const { t } = useTranslation();
  return (
    <Box
      role="note"
      data-testid="demo-provider-notice"
      bg="orange.950"
      color="orange.100"
      borderBottomWidth="1px"
      borderColor="orange.800"
      px={{ base: '3', md: '6' }}
      py="1.5"
      fontSize="sm"
      fontWeight="medium"
      textAlign="center"
    >
      {t('chat.header.demoNotice')}
    </Box>
  );
}

/** The conversation's title bar: who you talk to, whether a reply is being written, your balance, the chat settings. */
export function ChatHeader({
  title,
  characterName,
  avatarUrl,
  typing,
  tokens,
  onOpenSidebar,
  actions,
}: {
  title: string;
  characterName?: string | null;
  avatarUrl?: string | null;
  typing: boolean;
  tokens: number;
  onOpenSidebar: () => void;
  actions?: ReactNode;
}) {
  // The conversation shown is the route's (/chat/:conversationId).
  const { conversationId } = useParams();
  const { t, i18n } = useTranslation();
  return (
    <Flex
      as="header"
      align="center"
      gap="3"
      px={{ base: '3', md: '6' }}
      py="3"
      borderBottomWidth="1px"
      borderColor="border.muted"
      minH="16"
    >
      <OpenSidebarButton onClick={onOpenSidebar} />
      <Avatar.Root size="sm" colorPalette="purple" hideBelow="sm">
        <Avatar.Fallback>{personaInitial(characterName ?? title)}</Avatar.Fallback>
        {avatarUrl && <Avatar.Image src={avatarUrl} alt="" />}
      </Avatar.Root>
      <Stack gap="0" minW="0" flex="1">
        <Heading as="h1" size="md" truncate data-testid="chat-title">
          {title}
        </Heading>
        {characterName && characterName !== title && (
          <Text fontSize="sm" color="fg.muted" truncate data-testid="chat-character-name">
            {t('chat.header.withCharacter', { name: characterName })}
          </Text>
        )}
      </Stack>
      <HStack gap="2" flexShrink={0} flexWrap="wrap" justify="flex-end">
        <Badge colorPalette="green" variant="subtle">
          <Box as="span" w="2" h="2" rounded="full" bg="green.400" aria-hidden="true" />
          {t('chat.header.online')}
        </Badge>
        <Box as="span" role="status" display="contents">
          {typing && (
            <Badge colorPalette="purple" variant="subtle" data-testid="typing-badge">
              {t('chat.header.typing')}
            </Badge>
          )}
        </Box>
        <Badge variant="outline" colorPalette="gray" title={t('chat.header.tokenBalance')} data-testid="chat-token-balance">
          <CoinsIcon boxSize="3.5" />
          <span data-testid="chat-token-count">{new Intl.NumberFormat(i18n.language).format(tokens)}</span>
          <Box as="span" hideBelow="sm">
            {t('chat.header.tokenUnit', { count: tokens })}
          </Box>
        </Badge>
        {conversationId && <ChatSettingsMenu conversationId={conversationId} />}
        {actions}
      </HStack>
    </Flex>
  );
}
