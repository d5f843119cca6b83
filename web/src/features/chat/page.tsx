import { Box, Button, Center, CloseButton, Drawer, Flex, Heading, Link, Portal, Stack, Text, useBreakpointValue } from '@chakra-ui/react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useCallback, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { ChatIcon } from '../../components/icons/icons';
import { ChatComposer } from './components/chat-composer';
import { OpenSidebarButton } from './components/chat-header';
import { ConversationsDocument } from './operations';
import { ConversationSidebar } from './components/conversation-sidebar';
import { ConversationView } from './components/conversation-view';
import { useStartConversation } from './hooks/use-start-conversation';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { noConversationToast } from './chat-errors';
import { showToast } from '../../lib/toaster';

/** Trans puts the translated link text inside. */
function CharactersLink({ children }: { children?: ReactNode }) {
  return (
    <Link asChild color="purple.200" textDecoration="underline">
      <RouterLink to="/characters">{children}</RouterLink>
    </Link>
  );
}

function WelcomePane({ onStart, starting, onOpenSidebar }: { onStart: () => void; starting: boolean; onOpenSidebar: () => void }) {
  const { t } = useTranslation();
  return (
    <Center flex="1" p={{ base: '6', md: '10' }}>
      <Stack align="center" textAlign="center" gap="4" maxW="md">
        <Box p="4" rounded="full" bg="purple.900" color="purple.200">
          <ChatIcon boxSize="8" />
        </Box>
        <Heading as="h1" size="2xl" letterSpacing="tight">
          {t('chat.welcome.heading')}
        </Heading>
        <Text color="fg.muted">
          <Trans i18nKey="chat.welcome.text" components={{ charactersLink: <CharactersLink /> }} />
        </Text>
        <Button colorPalette="purple" size="lg" onClick={onStart} loading={starting}>
          {t('chat.welcome.start')}
        </Button>
        <Button variant="outline" hideFrom="md" onClick={onOpenSidebar}>
          {t('chat.welcome.openList')}
        </Button>
      </Stack>
    </Center>
  );
}

/** Spec §5: with no conversation selected there is nowhere to send; the text stays in the box. */
async function sendWithoutConversation(): Promise<boolean> {
  showToast(noConversationToast());
  return false;
}

/** Chat (spec §2): conversation list on the side (a drawer on phones), the selected conversation beside it. */
export default function ChatPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('chat.documentTitle'));
  const client = useApolloClient();
  const { conversationId } = useParams();
  const { pathname } = useLocation();
  const isWide = useBreakpointValue({ base: false, md: true }, { ssr: false }) ?? false;
  const { data, loading } = useQuery(ConversationsDocument, {
    // Fresh on entry (another tab or device may have started one), then served from the cache.
    fetchPolicy: 'cache-and-network',
    nextFetchPolicy: 'cache-first',
    errorPolicy: 'all',
  });
  const conversations = data?.conversations.nodes ?? [];
  const active = conversations.find((conversation) => conversation.id === conversationId);
  const { start, startingFor } = useStartConversation();
  // The drawer belongs to the page it was opened on, so following a link closes it.
  const [drawerOpenOn, setDrawerOpenOn] = useState<string | null>(null);
  const isDrawerOpen = !isWide && drawerOpenOn === pathname;
  const openDrawer = useCallback(() => setDrawerOpenOn(pathname), [pathname]);
  const closeDrawer = useCallback(() => setDrawerOpenOn(null), []);

  const startNew = useCallback(() => {
    closeDrawer();
    void start();
  }, [closeDrawer, start]);

  const onDeleted = useCallback(
    (id: string) => {
      client.cache.evict({ id: client.cache.identify({ __typename: 'Conversation', id }) });
      client.cache.gc();
    },
    [client],
  );

  const sidebar = (inDrawer: boolean) => (
    <ConversationSidebar
      conversations={conversations}
      loading={loading}
      activeId={conversationId}
      starting={startingFor === ''}
      onStart={startNew}
      onNavigate={closeDrawer}
      showHeading={!inDrawer}
    />
  );

  return (
    <Flex
      h={{ base: 'calc(100dvh - 4rem)', md: 'calc(100dvh - 8rem)' }}
      minH={{ base: '22rem', md: '28rem' }}
      mx={{ base: '-4', md: '0' }}
      my={{ base: '-8', md: '0' }}
      borderWidth={{ base: '0', md: '1px' }}
      borderColor="border.muted"
      rounded={{ base: 'none', md: 'xl' }}
      overflow="hidden"
      bg="bg"
      data-testid="chat-page"
    >
      {isWide && (
        <Box
          as="aside"
          aria-label={t('chat.layout.conversations')}
          w="72"
          flexShrink={0}
          borderEndWidth="1px"
          borderColor="border.muted"
          bg="bg.subtle"
        >
          {sidebar(false)}
        </Box>
      )}
      {!isWide && (
        <Drawer.Root
          open={isDrawerOpen}
          onOpenChange={(details) => (details.open ? openDrawer() : closeDrawer())}
          placement="start"
          lazyMount
          unmountOnExit
        >
          <Portal>
            <Drawer.Backdrop />
            <Drawer.Positioner>
              <Drawer.Content maxW="20rem" data-testid="conversation-drawer">
                <Drawer.Header pb="0">
                  <Drawer.Title>{t('chat.layout.drawerTitle')}</Drawer.Title>
                </Drawer.Header>
                <Drawer.Body px="0" py="0" display="flex" flexDirection="column">
                  {sidebar(true)}
                </Drawer.Body>
                <Drawer.CloseTrigger asChild>
                  <CloseButton size="sm" aria-label={t('chat.layout.closeDrawer')} />
                </Drawer.CloseTrigger>
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
      )}
      <Flex as="section" aria-label={t('chat.layout.chat')} direction="column" flex="1" minW="0" minH="0">
        {conversationId ? (
          <ConversationView
            key={conversationId}
            conversationId={conversationId}
            conversation={active}
            onOpenSidebar={openDrawer}
            onDeleted={onDeleted}
          />
        ) : (
          <>
            <Flex hideFrom="md" px="3" pt="3">
              <OpenSidebarButton onClick={openDrawer} />
            </Flex>
            <WelcomePane onStart={startNew} starting={startingFor === ''} onOpenSidebar={openDrawer} />
            <ChatComposer
              pending={false}
              replying={false}
              needsTokens={false}
              onSend={sendWithoutConversation}
              onStop={() => undefined}
              stopping={false}
            />
          </>
        )}
      </Flex>
    </Flex>
  );
}
