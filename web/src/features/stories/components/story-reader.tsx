import {
  Badge,
  Box,
  Button,
  Center,
  CloseButton,
  Drawer,
  Flex,
  Heading,
  HStack,
  IconButton,
  Menu,
  Portal,
  Skeleton,
  Stack,
  Text,
  useBreakpointValue,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useCurrentUser } from '../../../auth/auth-context';
import { DownloadIcon, MoreIcon } from '../../../components/icons/chat-icons';
import { CoinsIcon } from '../../../components/icons/icons';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { chatErrorHandler, describeChatError } from '../../chat/chat-errors';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { ConfirmDialog, RenameDialog } from '../../../components/dialogs';
import { getErrorCode } from '../../../lib/graphql-errors';
import { showToast, type ToastInput } from '../../../lib/toaster';
import { useLiveStory, type StoryPassage } from '../hooks/use-live-story';
import {
  ChooseStoryOptionDocument,
  DeleteStoryDocument,
  GoToPassageDocument,
  RenameStoryDocument,
  RetellPassageDocument,
  SetSavePointDocument,
  StopStoryDocument,
  StoryExportDocument,
  StoryMapDocument,
  TakeStoryActionDocument,
} from '../operations';
import { childCounts, latestLeaf, markdownFileName, passageProse, STORY_INPUT_LIMITS } from '../story-model';
import { PassageView, type PassageActions } from './passage-view';
import { SavePointDialog } from './save-point-dialog';
import { ArrowLeftIcon } from '../../../components/icons/story-icons';
import { BranchIcon } from '../../../components/icons/chat-icons';
import { useStoryKind } from './story-list';
import { StoryMap, type StoryMapNode } from './story-map';
import { StoryNextMove } from './story-next-move';

/** How long the exported file's object URL is kept before it is released. */
const REVOKE_AFTER_MS = 30_000;

function downloadText(fileName: string, text: string): void {
  const objectUrl = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(objectUrl), REVOKE_AFTER_MS);
  }
}

function ReaderLoading() {
  return (
    <Stack gap="6" maxW="3xl" mx="auto" w="full" aria-busy="true">
      <Skeleton h="8" w="60%" />
      <Skeleton h="40" rounded="xl" />
      <Skeleton h="24" rounded="xl" />
    </Stack>
  );
}

/** A story being read: the branch from its opening to the current passage, the next move, and the branch map. */
export function StoryReader({ storyId }: { storyId: string }) {
  const { t } = useTranslation();
  const client = useApolloClient();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const storyKind = useStoryKind();
  const { story, passages, typing, deleted, load, showNewPassage, mergeReturned, setStory } = useLiveStory(storyId);
  useDocumentTitle(story?.title ?? t('stories.documentTitle'));

  const current = passages[passages.length - 1];
  const streaming = passages.some((passage) => passage.status === 'STREAMING');
  const [pending, setPending] = useState(false);
  const { run: runStop, pending: stopping } = useMutationToast();
  const [needsTokens, setNeedsTokens] = useState(false);
  const [savePointFor, setSavePointFor] = useState<StoryPassage | null>(null);
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  const busy = pending || streaming;

  // The map also tells each passage how many other branches start beside it; it is refreshed as the story grows.
  const isWide = useBreakpointValue({ base: false, lg: true }, { ssr: false }) ?? false;
  const [mapOpen, setMapOpen] = useState(false);
  const statusKey = passages.map((passage) => passage.status).join(',');
  const mapQuery = useQuery(StoryMapDocument, { variables: { storyId }, fetchPolicy: 'cache-and-network', errorPolicy: 'all' });
  const mapNodes = useMemo(() => mapQuery.data?.storyMap ?? [], [mapQuery.data]);
  const refetchMap = mapQuery.refetch;
  useEffect(() => {
    if (load.status === 'ready') void refetchMap();
  }, [load.status, refetchMap, statusKey, story?.passageCount, story?.currentPassageId]);
  const branchCounts = useMemo(() => childCounts(mapNodes), [mapNodes]);
  const openingCount = useMemo(() => mapNodes.filter((node) => !node.parentId).length, [mapNodes]);
  const pathIds = useMemo(() => passages.map((passage) => passage.id), [passages]);

  // Choices of the current passage that were taken before, matched by their text.
  const exploredChoices = useMemo(() => {
    const explored = new Map<number, string>();
    if (!current) return explored;
    for (const node of mapNodes) {
      if (node.parentId !== current.id || node.actionKind !== 'CHOICE') continue;
      const index = current.choices.indexOf(node.action ?? '');
      if (index !== -1 && !explored.has(index)) explored.set(index, node.id);
    }
    return explored;
  }, [current, mapNodes]);
  const exploredIndexes = useMemo(() => new Set(exploredChoices.keys()), [exploredChoices]);

  useEffect(() => {
    if (!deleted) return;
    void navigate('/stories', { replace: true });
  }, [deleted, navigate]);

  // Bring a passage the member asked for into view once it is on screen.
  const followId = useRef<string | null>(null);
  useEffect(() => {
    if (!followId.current) return;
    const element = document.querySelector(`[data-passage-id="${followId.current}"]`);
    if (!element) return;
    followId.current = null;
    element.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [passages]);

  const showFailure = useCallback((error: unknown, fallback: string) => {
    const { toast, needsTokens: outOfTokens } = describeChatError(error, { title: fallback, variant: 'destructive' } satisfies ToastInput);
    if (toast) showToast(toast);
    if (outOfTokens) setNeedsTokens(true);
  }, []);

  /** Runs one request at a time; false when it failed (its toast is shown). */
  const run = useCallback(
    async (work: () => Promise<void>, fallback: string): Promise<boolean> => {
      setPending(true);
      try {
        await work();
        return true;
      } catch (error) {
        showFailure(error, fallback);
        return false;
      } finally {
        setPending(false);
      }
    },
    [showFailure],
  );

  const goTo = useCallback(
    (passageId: string) =>
      run(async () => {
        const { data } = await client.mutate({ mutation: GoToPassageDocument, variables: { storyId, passageId } });
        if (data) setStory(data.goToPassage);
      }, t('stories.reader.goBackFailed')),
    [client, run, setStory, storyId, t],
  );

  const started = useCallback(
    (passage: StoryPassage) => {
      showNewPassage(passage);
      setNeedsTokens(false);
      followId.current = passage.id;
    },
    [showNewPassage],
  );

  const choose = useCallback(
    (choiceIndex: number) => {
      if (!current || busy) return;
      // A choice taken before resumes its branch (free); Retell there writes it anew.
      const exploredId = exploredChoices.get(choiceIndex);
      if (exploredId) {
        void goTo(latestLeaf(mapNodes, exploredId));
        return;
      }
      void run(async () => {
        const { data } = await client.mutate({
          mutation: ChooseStoryOptionDocument,
          variables: { storyId, passageId: current.id, choiceIndex },
        });
        if (data) started(data.chooseStoryOption);
      }, t('stories.reader.continueFailed'));
    },
    [busy, client, current, exploredChoices, goTo, mapNodes, run, started, storyId, t],
  );

  const act = useCallback(
    (action: string) => {
      if (!current || busy) return Promise.resolve(false);
      return run(async () => {
        const { data } = await client.mutate({ mutation: TakeStoryActionDocument, variables: { storyId, passageId: current.id, action } });
        if (data) started(data.takeStoryAction);
      }, t('stories.reader.continueFailed'));
    },
    [busy, client, current, run, started, storyId, t],
  );

  const stop = useCallback(async () => {
    const failure: ToastInput = { title: t('stories.reader.stopFailed'), variant: 'destructive' };
    await runStop({
      mutation: StopStoryDocument,
      variables: { storyId },
      failure,
      handleError: chatErrorHandler(failure, () => setNeedsTokens(true)),
    });
  }, [runStop, storyId, t]);

  const saveSavePoint = useCallback(
    async (passage: StoryPassage, label: string) => {
      const saved = await run(async () => {
        const { data } = await client.mutate({ mutation: SetSavePointDocument, variables: { storyId, passageId: passage.id, label } });
        if (data) mergeReturned([data.setSavePoint]);
      }, t('stories.savePoint.failed'));
      if (!saved) return;
      setSavePointFor(null);
      showToast({ title: label ? t('stories.savePoint.saved') : t('stories.savePoint.removed') });
      void refetchMap();
    },
    [client, mergeReturned, refetchMap, run, storyId, t],
  );

  const actions = useMemo<PassageActions>(
    () => ({
      onGoBack: (passage) => {
        void goTo(passage.id).then((moved) => {
          if (moved) showToast({ title: t('stories.reader.wentBack') });
        });
      },
      onRetell: (passage) => {
        void run(async () => {
          const { data } = await client.mutate({ mutation: RetellPassageDocument, variables: { storyId, passageId: passage.id } });
          if (data) started(data.retellPassage);
        }, t('stories.reader.retellFailed'));
      },
      onSavePoint: (passage) => setSavePointFor(passage),
      onShowBranches: () => setMapOpen(true),
    }),
    [client, goTo, run, started, storyId, t],
  );

  const goToNode = useCallback(
    (node: StoryMapNode) => {
      if (!isWide) setMapOpen(false);
      if (node.id === current?.id) return;
      followId.current = node.id;
      void goTo(node.id);
    },
    [current?.id, goTo, isWide],
  );

  const exportStory = useCallback(async () => {
    const fallbackName = story?.title || t('stories.documentTitle');
    await run(async () => {
      const { data } = await client.query({
        query: StoryExportDocument,
        variables: { storyId, passageId: current?.id ?? null },
        fetchPolicy: 'no-cache',
      });
      if (!data) throw new Error('storyExport returned no data');
      downloadText(markdownFileName(data.storyExport.fileName, fallbackName), data.storyExport.markdown);
    }, t('stories.reader.exportFailed'));
  }, [client, current?.id, run, story?.title, storyId, t]);

  const rename = useCallback(
    async (title: string) => {
      const renamed = await run(async () => {
        const { data } = await client.mutate({ mutation: RenameStoryDocument, variables: { id: storyId, title } });
        if (data) setStory(data.renameStory);
      }, t('stories.rename.failed'));
      if (renamed) setDialog(null);
    },
    [client, run, setStory, storyId, t],
  );

  const remove = useCallback(async () => {
    const removed = await run(async () => {
      await client.mutate({ mutation: DeleteStoryDocument, variables: { id: storyId } });
      client.cache.evict({ id: client.cache.identify({ __typename: 'Story', id: storyId }) });
      client.cache.gc();
    }, t('stories.delete.failed'));
    if (!removed) return;
    showToast({ title: t('stories.delete.done') });
    void navigate('/stories', { replace: true });
  }, [client, navigate, run, storyId, t]);

  // Screen readers hear a finished passage once (the text itself is not live: it changes every few words).
  const [announced, setAnnounced] = useState<{ streamingId: string | undefined; text: string }>({ streamingId: undefined, text: '' });
  const streamingId = passages.find((passage) => passage.status === 'STREAMING')?.id;
  if (streamingId !== announced.streamingId) {
    const finished = announced.streamingId ? passages.find((passage) => passage.id === announced.streamingId) : undefined;
    const text =
      finished?.status === 'COMPLETE' ? t('stories.reader.announce', { text: passageProse(finished.content, false) }) : announced.text;
    setAnnounced({ streamingId, text });
  }

  if (load.status === 'error') {
    const notFound = getErrorCode(load.error) === 'NOT_FOUND';
    return (
      <Center py="16" px="4">
        <Stack align="center" textAlign="center" gap="3">
          <Heading as="h1" size="lg">
            {notFound ? t('stories.reader.notFound') : t('stories.reader.loadFailed')}
          </Heading>
          <Text color="fg.muted">{notFound ? t('stories.reader.notFoundText') : t('stories.reader.loadFailedText')}</Text>
          <Button asChild colorPalette="purple">
            <RouterLink to="/stories">{t('stories.reader.back')}</RouterLink>
          </Button>
        </Stack>
      </Center>
    );
  }

  const kind = story ? storyKind(story) : '';
  const hasDemo = passages.some((passage) => passage.isDemo);
  const map = (
    <StoryMap
      nodes={mapNodes}
      loading={mapQuery.loading}
      failed={Boolean(mapQuery.error)}
      currentId={current?.id ?? null}
      pathIds={pathIds}
      disabled={busy}
      onGo={goToNode}
    />
  );

  return (
    <Flex gap="8" align="flex-start" minW="0" data-testid="story-reader">
      <Stack gap="6" flex="1" minW="0" maxW="3xl" mx="auto">
        <Stack gap="3">
          <Button asChild variant="ghost" size="sm" alignSelf="flex-start" ms="-2">
            <RouterLink to="/stories">
              <ArrowLeftIcon />
              {t('stories.reader.back')}
            </RouterLink>
          </Button>
          <Flex gap="3" align="flex-start" wrap="wrap">
            <Stack gap="1" flex="1" minW="min(100%, 16rem)">
              <Heading as="h1" size={{ base: 'xl', md: '2xl' }} letterSpacing="tight" overflowWrap="anywhere" data-testid="story-title">
                {story?.title ?? <Skeleton as="span" display="inline-block" h="6" w="40" />}
              </Heading>
              {(kind || (story && story.characterNames.length > 0)) && (
                <Text fontSize="sm" color="fg.muted">
                  {[kind, story?.characterNames.join(', ')].filter(Boolean).join(' — ')}
                </Text>
              )}
            </Stack>
            <HStack gap="2" flexWrap="wrap">
              <Box as="span" role="status" display="contents">
                {(typing || streaming) && (
                  <Badge colorPalette="purple" variant="subtle" data-testid="story-typing-badge">
                    {t('stories.reader.writing')}
                  </Badge>
                )}
              </Box>
              <Badge variant="outline" colorPalette="gray" title={t('stories.reader.tokenCost')}>
                <CoinsIcon boxSize="3.5" />
                <span data-testid="story-token-count">{user.tokens ?? 0}</span>
              </Badge>
              <Button
                size="sm"
                variant={mapOpen ? 'subtle' : 'outline'}
                colorPalette="purple"
                aria-expanded={mapOpen}
                onClick={() => setMapOpen((open) => !open)}
                data-testid="story-map-toggle"
              >
                <BranchIcon />
                {t('stories.reader.map')}
              </Button>
              <Button size="sm" variant="outline" onClick={() => void exportStory()} disabled={!current} data-testid="story-export">
                <DownloadIcon />
                {t('stories.reader.export')}
              </Button>
              <Menu.Root positioning={{ placement: 'bottom-end' }}>
                <Menu.Trigger asChild>
                  <IconButton aria-label={t('stories.reader.moreActions')} size="sm" variant="ghost">
                    <MoreIcon />
                  </IconButton>
                </Menu.Trigger>
                <Portal>
                  <Menu.Positioner>
                    <Menu.Content>
                      <Menu.Item value="rename" onSelect={() => setDialog('rename')}>
                        {t('stories.reader.rename')}
                      </Menu.Item>
                      <Menu.Item
                        value="delete"
                        color="fg.error"
                        _hover={{ bg: 'bg.error', color: 'fg.error' }}
                        onSelect={() => setDialog('delete')}
                      >
                        {t('stories.reader.delete')}
                      </Menu.Item>
                    </Menu.Content>
                  </Menu.Positioner>
                </Portal>
              </Menu.Root>
            </HStack>
          </Flex>
          {hasDemo && (
            <Box
              role="note"
              data-testid="story-demo-notice"
              bg="orange.950"
              color="orange.100"
              borderWidth="1px"
              borderColor="orange.800"
              rounded="md"
              px="3"
              py="1.5"
              fontSize="sm"
              fontWeight="medium"
              textAlign="center"
            >
              {t('stories.demo.notice')}
            </Box>
          )}
        </Stack>

        {load.status === 'loading' ? (
          <ReaderLoading />
        ) : (
          <Stack as="section" aria-label={story?.title} gap="8">
            {passages.map((passage, index) => {
              const siblings = passage.parentId ? (branchCounts.get(passage.parentId) ?? 1) : openingCount;
              return (
                <PassageView
                  key={passage.id}
                  passage={passage}
                  isCurrent={index === passages.length - 1}
                  otherBranches={Math.max(0, siblings - 1)}
                  canAct={!busy}
                  actions={actions}
                />
              );
            })}
            <StoryNextMove
              passage={current}
              busy={busy}
              stopping={stopping}
              needsTokens={needsTokens}
              exploredChoices={exploredIndexes}
              onChoose={choose}
              onAct={act}
              onStop={() => void stop()}
            />
          </Stack>
        )}
        <VisuallyHidden aria-live="polite">{announced.text}</VisuallyHidden>
      </Stack>

      {isWide && mapOpen && (
        <Box
          as="aside"
          aria-label={t('stories.map.title')}
          w="80"
          flexShrink={0}
          position="sticky"
          top="20"
          maxH="calc(100dvh - 6rem)"
          overflowY="auto"
          borderWidth="1px"
          borderColor="border.muted"
          rounded="xl"
          bg="bg.subtle"
          p="4"
        >
          <Flex justify="space-between" align="center" mb="3">
            <Heading as="h2" size="md">
              {t('stories.map.title')}
            </Heading>
            <CloseButton size="sm" aria-label={t('stories.map.close')} onClick={() => setMapOpen(false)} />
          </Flex>
          {map}
        </Box>
      )}
      {!isWide && (
        <Drawer.Root open={mapOpen} onOpenChange={(details) => setMapOpen(details.open)} placement="end" lazyMount unmountOnExit>
          <Portal>
            <Drawer.Backdrop />
            <Drawer.Positioner>
              <Drawer.Content maxW="min(22rem, 100vw)" data-testid="story-map-drawer">
                <Drawer.Header>
                  <Drawer.Title>{t('stories.map.title')}</Drawer.Title>
                </Drawer.Header>
                <Drawer.Body>{map}</Drawer.Body>
                <Drawer.CloseTrigger asChild>
                  <CloseButton size="sm" aria-label={t('stories.map.close')} />
                </Drawer.CloseTrigger>
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
      )}

      {savePointFor && (
        <SavePointDialog
          key={savePointFor.id}
          open
          initialName={savePointFor.savePoint ?? null}
          saving={pending}
          onSave={(label) => void saveSavePoint(savePointFor, label)}
          onClose={() => setSavePointFor(null)}
        />
      )}
      {dialog === 'rename' && story && (
        <RenameDialog
          title={t('stories.rename.title')}
          label={t('stories.rename.label')}
          maxLength={STORY_INPUT_LIMITS.titleLength}
          open
          initialValue={story.title}
          saving={pending}
          onSave={(title) => void rename(title)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'delete' && story && (
        <ConfirmDialog
          open
          title={t('stories.delete.title')}
          description={t('stories.delete.description', { title: story.title })}
          confirmLabel={t('stories.delete.confirm')}
          busy={pending}
          onConfirm={() => void remove()}
          onClose={() => setDialog(null)}
        />
      )}
    </Flex>
  );
}
