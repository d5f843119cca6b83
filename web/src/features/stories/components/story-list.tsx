import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Flex,
  Heading,
  HStack,
  IconButton,
  Menu,
  Portal,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { MoreIcon, PlusIcon } from '../../../components/icons/chat-icons';
import { useNow } from '../../../hooks/use-now';
import { chatErrorHandler } from '../../chat/chat-errors';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { ConfirmDialog, RenameDialog } from '../../../components/dialogs';
import type { ToastInput } from '../../../lib/toaster';
import { MyQuotasDocument } from '../../dashboard/quotas';
import { DeleteStoryDocument, RenameStoryDocument, StoriesDocument } from '../operations';
import { formatRelativeTime, STORY_INPUT_LIMITS } from '../story-model';
import type { StoryInfo } from '../hooks/use-live-story';
import { StoryIcon } from '../../../components/icons/story-icons';

/** The month's story allowance, as `myQuotas` reports it (nothing when the plan has none). */
export function StoryAllowance() {
  const { t } = useTranslation();
  const { data } = useQuery(MyQuotasDocument, { fetchPolicy: 'cache-and-network', errorPolicy: 'all' });
  const quota = data?.myQuotas.find((item) => item.kind === 'STORY');
  if (!quota) return null;
  const usedUp = quota.used >= quota.limit;
  return (
    <Badge
      colorPalette={usedUp ? 'red' : 'purple'}
      variant="subtle"
      size="lg"
      title={usedUp ? t('stories.allowanceUsedUp') : undefined}
      data-testid="story-allowance"
      // Long in some languages ("… kostenlose Geschichten in diesem Monat"): wraps on a narrow phone instead of overflowing.
      whiteSpace="normal"
      h="auto"
      minH="8"
      maxW="full"
    >
      {t('stories.allowance', { used: quota.used, limit: quota.limit })}
    </Badge>
  );
}

/** Genre · tone, translated; empty when neither was chosen. */
export function useStoryKind() {
  const { t } = useTranslation();
  return (story: Pick<StoryInfo, 'genre' | 'tone'>) =>
    [story.genre && t(`stories.genres.${story.genre}`), story.tone && t(`stories.tones.${story.tone}`)].filter(Boolean).join(' · ');
}

function StoryCard({ story, now, onRename, onDelete }: { story: StoryInfo; now: number; onRename: () => void; onDelete: () => void }) {
  const { t, i18n } = useTranslation();
  const kind = useStoryKind()(story);
  const lastPlayed = formatRelativeTime(story.lastPlayedAt, now, i18n.resolvedLanguage ?? i18n.language);
  return (
    <Card.Root variant="outline" h="full" data-testid="story-card" _hover={{ borderColor: 'purple.500' }} transition="border-color 0.15s">
      <Card.Body gap="2" minW="0">
        <Flex gap="2" align="flex-start">
          <Heading as="h2" size="md" flex="1" minW="0" lineClamp={2} data-testid="story-card-title">
            <RouterLink to={`/stories/${story.id}`}>{story.title}</RouterLink>
          </Heading>
          <Menu.Root positioning={{ placement: 'bottom-end' }}>
            <Menu.Trigger asChild>
              <IconButton aria-label={t('stories.card.actions', { title: story.title })} size="xs" variant="ghost" flexShrink={0}>
                <MoreIcon />
              </IconButton>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  <Menu.Item value="rename" onSelect={onRename}>
                    {t('stories.card.rename')}
                  </Menu.Item>
                  <Menu.Item value="delete" color="fg.error" _hover={{ bg: 'bg.error', color: 'fg.error' }} onSelect={onDelete}>
                    {t('stories.card.delete')}
                  </Menu.Item>
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        </Flex>
        {kind && (
          <Text fontSize="sm" color="purple.300">
            {kind}
          </Text>
        )}
        <Text fontSize="sm" color="fg.muted" lineClamp={3}>
          {story.premise}
        </Text>
        {story.characterNames.length > 0 && (
          <Text fontSize="sm" color="fg.muted" truncate>
            {t('stories.card.with', {
              names: new Intl.ListFormat(i18n.resolvedLanguage ?? i18n.language, { type: 'conjunction' }).format(story.characterNames),
            })}
          </Text>
        )}
      </Card.Body>
      <Card.Footer gap="3" justifyContent="space-between" flexWrap="wrap">
        <Stack gap="0" fontSize="xs" color="fg.muted">
          <Text>{t('stories.card.passages', { count: story.passageCount })}</Text>
          <Text asChild title={new Date(story.lastPlayedAt).toLocaleString(i18n.resolvedLanguage ?? i18n.language)}>
            <time dateTime={story.lastPlayedAt} data-testid="story-last-played">
              {t('stories.card.lastPlayed', { time: lastPlayed })}
            </time>
          </Text>
        </Stack>
        <Button asChild size="sm" colorPalette="purple" variant="subtle">
          <RouterLink to={`/stories/${story.id}`} aria-label={`${t('stories.card.open')}: ${story.title}`}>
            {t('stories.card.open')}
          </RouterLink>
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}

function EmptyStories({ onStart }: { onStart: () => void }) {
  const { t } = useTranslation();
  return (
    <Center py={{ base: '10', md: '16' }} borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="xl" px="6">
      <Stack align="center" textAlign="center" gap="4" maxW="md">
        <Box p="4" rounded="full" bg="purple.900" color="purple.200">
          <StoryIcon boxSize="8" />
        </Box>
        <Heading as="h2" size="lg">
          {t('stories.empty.title')}
        </Heading>
        <Text color="fg.muted">{t('stories.empty.description')}</Text>
        <Button colorPalette="purple" size="lg" onClick={onStart}>
          {t('stories.empty.action')}
        </Button>
      </Stack>
    </Center>
  );
}

/** The member's stories, most recently played first, with rename and delete. */
export function StoryList({ onNewStory }: { onNewStory: () => void }) {
  const { t } = useTranslation();
  const client = useApolloClient();
  const now = useNow();
  const { data, loading, error, refetch } = useQuery(StoriesDocument, {
    fetchPolicy: 'cache-and-network',
    nextFetchPolicy: 'cache-first',
    errorPolicy: 'all',
  });
  const [renaming, setRenaming] = useState<StoryInfo | null>(null);
  const [deleting, setDeleting] = useState<StoryInfo | null>(null);
  const { run, pending: busy } = useMutationToast();
  const stories = [...(data?.stories.nodes ?? [])].sort((a, b) => Date.parse(b.lastPlayedAt) - Date.parse(a.lastPlayedAt));

  const rename = async (story: StoryInfo, title: string) => {
    const failure: ToastInput = { title: t('stories.rename.failed'), variant: 'destructive' };
    const renamed = await run({
      mutation: RenameStoryDocument,
      variables: { id: story.id, title },
      failure,
      handleError: chatErrorHandler(failure),
    });
    if (renamed) setRenaming(null);
  };

  const remove = async (story: StoryInfo) => {
    const failure: ToastInput = { title: t('stories.delete.failed'), variant: 'destructive' };
    const deleted = await run({
      mutation: DeleteStoryDocument,
      variables: { id: story.id },
      success: { title: t('stories.delete.done') },
      failure,
      handleError: chatErrorHandler(failure),
    });
    if (!deleted) return;
    client.cache.evict({ id: client.cache.identify({ __typename: 'Story', id: story.id }) });
    client.cache.gc();
    setDeleting(null);
  };

  if (!data && loading) {
    return (
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4" aria-busy="true">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} h="48" rounded="lg" />
        ))}
      </SimpleGrid>
    );
  }
  if (!data && error) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title flex="1">{t('stories.loadFailed')}</Alert.Title>
        <Button size="sm" variant="outline" onClick={() => void refetch()}>
          {t('stories.retry')}
        </Button>
      </Alert.Root>
    );
  }
  if (stories.length === 0) return <EmptyStories onStart={onNewStory} />;

  return (
    <>
      <SimpleGrid as="ul" aria-label={t('stories.listLabel')} columns={{ base: 1, md: 2, xl: 3 }} gap="4" listStyleType="none" m="0" p="0">
        {stories.map((story) => (
          <li key={story.id}>
            <StoryCard story={story} now={now} onRename={() => setRenaming(story)} onDelete={() => setDeleting(story)} />
          </li>
        ))}
      </SimpleGrid>
      {renaming && (
        <RenameDialog
          key={renaming.id}
          title={t('stories.rename.title')}
          label={t('stories.rename.label')}
          maxLength={STORY_INPUT_LIMITS.titleLength}
          open
          initialValue={renaming.title}
          saving={busy}
          onSave={(title) => void rename(renaming, title)}
          onClose={() => setRenaming(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          open
          title={t('stories.delete.title')}
          description={t('stories.delete.description', { title: deleting.title })}
          confirmLabel={t('stories.delete.confirm')}
          busy={busy}
          onConfirm={() => void remove(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}

/** The list screen: heading, allowance and "New story", then the stories. */
export function StoriesHome({ onNewStory }: { onNewStory: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="6">
      <Flex gap="4" align={{ base: 'flex-start', md: 'center' }} justify="space-between" direction={{ base: 'column', md: 'row' }}>
        <Stack gap="1">
          <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="tight">
            {t('stories.heading')}
          </Heading>
          <Text color="fg.muted">{t('stories.subtitle')}</Text>
        </Stack>
        <HStack gap="3" flexWrap="wrap">
          <StoryAllowance />
          <Button colorPalette="purple" onClick={onNewStory} data-testid="new-story-button">
            <PlusIcon />
            {t('stories.newStory')}
          </Button>
        </HStack>
      </Flex>
      <StoryList onNewStory={onNewStory} />
    </Stack>
  );
}
