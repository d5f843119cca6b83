import {
  Box,
  Button,
  Center,
  Flex,
  Group,
  IconButton,
  Input,
  InputGroup,
  SimpleGrid,
  Skeleton,
  Spinner,
  Stack,
  Tabs,
  Text,
} from '@chakra-ui/react';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { SearchIcon } from '../../components/icons/chat-icons';
import { GalleryIcon } from '../../components/icons/icons';
import { ImageCard, type GalleryTab, type GalleryView } from '../images/components/image-card';
import { ImageDetailsDialog } from '../images/components/image-details-dialog';
import { AgeVerificationNote } from '../moderation/components/age-verification-note';
import { useContentSettings } from '../moderation/hooks/use-content-settings';
import { InfiniteScrollSentinel } from '../images/components/infinite-scroll-sentinel';
import { GridViewIcon, ListViewIcon } from '../../components/icons/media-icons';
import { useCachedImage } from '../images/hooks/use-image-actions';
import { useImageList } from '../images/hooks/use-image-list';
import { PageHeader } from '../../components/page-header';
import type { ImageFieldsFragment } from '../../gql/graphql';
import { startsBlurred } from '../moderation/content-ratings';
import { normalizeSearch, SEARCH_MAX_LENGTH } from '../images/image-settings';
import { imageListState } from '../images/list-state';

/** Typing pauses this long before the search goes to the server. */
export const SEARCH_DEBOUNCE_MS = 300;

const TABS: readonly GalleryTab[] = ['public', 'mine'];

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

function GallerySkeleton({ view }: { view: GalleryView }) {
  return view === 'grid' ? (
    <SimpleGrid columns={{ base: 2, md: 3, lg: 4 }} gap="4" aria-hidden="true">
      {[0, 1, 2, 3].map((index) => (
        <Skeleton key={index} aspectRatio={0.8} rounded="lg" />
      ))}
    </SimpleGrid>
  ) : (
    <Stack gap="3" aria-hidden="true">
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} h="28" rounded="lg" />
      ))}
    </Stack>
  );
}

function emptyTitle(t: TFunction, tab: GalleryTab, search: string | null, error: boolean): string {
  if (error) return t('images.gallery.empty.loadFailed');
  if (search) return t('images.gallery.empty.noMatch', { search });
  return tab === 'public' ? t('images.gallery.empty.publicTitle') : t('images.gallery.empty.mineTitle');
}

function EmptyGallery({ tab, search, error, onRetry }: { tab: GalleryTab; search: string | null; error: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  const title = emptyTitle(t, tab, search, error);
  return (
    <Center borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" py="12" px="6" data-testid="gallery-empty">
      <Stack align="center" textAlign="center" gap="3" maxW="sm">
        <GalleryIcon boxSize="8" color="purple.300" />
        <Text fontWeight="medium">{title}</Text>
        {error ? (
          <Button size="sm" variant="outline" onClick={onRetry}>
            {t('images.gallery.empty.retry')}
          </Button>
        ) : search ? (
          <Text fontSize="sm" color="fg.muted">
            {t('images.gallery.empty.noMatchHint')}
          </Text>
        ) : tab === 'public' ? (
          <Text fontSize="sm" color="fg.muted">
            {t('images.gallery.empty.publicHint')}
          </Text>
        ) : (
          <Button asChild size="sm" colorPalette="purple">
            <RouterLink to="/generator">{t('images.gallery.empty.createFirst')}</RouterLink>
          </Button>
        )}
      </Stack>
    </Center>
  );
}

/** Whether a picture starts blurred for this member: someone else's, at a rating they chose to blur, not yet revealed. */
type BlurCheck = (image: ImageFieldsFragment) => boolean;

/** One tab's images: grid or list, loading the next page as the end comes into view. */
function ImageBrowser({
  tab,
  search,
  view,
  isBlurred,
  onReveal,
  onOpen,
}: {
  tab: GalleryTab;
  search: string | null;
  view: GalleryView;
  isBlurred: BlurCheck;
  onReveal: (image: ImageFieldsFragment) => void;
  onOpen: (image: ImageFieldsFragment) => void;
}) {
  const { t } = useTranslation();
  const list = useImageList(tab, search);
  // Spec §8: an image that fails to load hides its card.
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const shown = list.images.filter((image) => !failed.has(image.id));
  const hide = (id: string) => setFailed((current) => new Set(current).add(id));
  const state = imageListState({
    loading: list.loading,
    error: Boolean(list.error),
    total: list.images.length,
    shown: shown.length,
    hasNextPage: list.hasNextPage,
  });

  if (state === 'loading') return <GallerySkeleton view={view} />;
  if (state === 'empty' || state === 'error') {
    return <EmptyGallery tab={tab} search={search} error={state === 'error'} onRetry={() => void list.refetch()} />;
  }
  if (state === 'unavailable') {
    // The images exist; their pictures failed to load (offline, a busy server): never "No images yet".
    const retry = () => {
      setFailed(new Set());
      void list.refetch();
    };
    return (
      <Center borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" py="12" px="6" data-testid="gallery-unavailable">
        <Stack align="center" textAlign="center" gap="3" maxW="sm">
          <GalleryIcon boxSize="8" color="purple.300" />
          <Text fontWeight="medium">{t('images.gallery.picturesFailed')}</Text>
          <Button size="sm" variant="outline" onClick={retry}>
            {t('images.gallery.empty.retry')}
          </Button>
        </Stack>
      </Center>
    );
  }

  const cards = shown.map((image) => (
    <li key={image.id}>
      <ImageCard
        image={image}
        view={view}
        tab={tab}
        blurred={isBlurred(image)}
        onOpen={() => onOpen(image)}
        onReveal={() => onReveal(image)}
        onError={() => hide(image.id)}
      />
    </li>
  ));

  return (
    <Stack gap="6" aria-busy={list.refreshing || list.loadingMore}>
      {view === 'grid' ? (
        <SimpleGrid
          as="ul"
          columns={{ base: 2, md: 3, lg: 4 }}
          gap="4"
          listStyleType="none"
          m="0"
          p="0"
          opacity={list.refreshing ? 0.6 : 1}
          data-testid="gallery-grid"
          data-view="grid"
        >
          {cards}
        </SimpleGrid>
      ) : (
        <Stack
          as="ul"
          gap="3"
          listStyleType="none"
          m="0"
          p="0"
          opacity={list.refreshing ? 0.6 : 1}
          data-testid="gallery-grid"
          data-view="list"
        >
          {cards}
        </Stack>
      )}
      <InfiniteScrollSentinel onVisible={() => void list.loadMore()} enabled={list.hasNextPage} itemCount={list.images.length} />
      {list.hasNextPage && (
        <Center>
          {list.loadingMore ? (
            <Spinner color="purple.300" aria-label={t('images.gallery.loadingMore')} />
          ) : (
            <Button variant="outline" size="sm" onClick={() => void list.loadMore()}>
              {t('images.gallery.loadMore')}
            </Button>
          )}
        </Center>
      )}
    </Stack>
  );
}

/**
 * AI Gallery (spec §2): Public Gallery and My Images tabs (the tab is kept in `?tab=`), a
 * server-side prompt search, grid or list view, endless scrolling, and the Image Details dialog.
 */
export default function GalleryPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: GalleryTab = params.get('tab') === 'mine' ? 'mine' : 'public';
  const [view, setView] = useState<GalleryView>('grid');
  const [searchText, setSearchText] = useState('');
  const search = normalizeSearch(useDebounced(searchText, SEARCH_DEBOUNCE_MS));
  const [opened, setOpened] = useState<{ image: ImageFieldsFragment; tab: GalleryTab } | null>(null);
  // The dialog follows the cached image, so a like or a visibility change shows at once.
  const openedImage = useCachedImage(opened?.image.id, opened?.image ?? null);
  const { preferences, heldBackForAge } = useContentSettings();
  // Pictures the member chose to see with Show, for this visit.
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(() => new Set());
  const reveal = (image: ImageFieldsFragment) => setRevealed((current) => new Set(current).add(image.id));
  const isBlurred: BlurCheck = (image) => !revealed.has(image.id) && startsBlurred(image, preferences);

  const selectTab = (next: string) => {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'mine') updated.set('tab', 'mine');
        else updated.delete('tab');
        return updated;
      },
      { replace: true },
    );
  };

  return (
    <Stack gap="2">
      <PageHeader title={t('images.gallery.title')} description={t('images.gallery.description')} />
      {heldBackForAge && (
        <Box mb="6">
          <AgeVerificationNote />
        </Box>
      )}
      <Tabs.Root
        value={tab}
        onValueChange={(details) => selectTab(details.value)}
        variant="line"
        colorPalette="purple"
        lazyMount
        unmountOnExit
      >
        <Flex gap="4" align={{ base: 'stretch', md: 'flex-end' }} direction={{ base: 'column', md: 'row' }} justify="space-between" mb="6">
          <Tabs.List>
            {TABS.map((key) => (
              <Tabs.Trigger key={key} value={key}>
                {t(`images.gallery.tabs.${key}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Flex gap="3" align="center">
            <InputGroup startElement={<SearchIcon boxSize="4" color="fg.muted" />} flex="1" minW={{ md: '18rem' }}>
              <Input
                type="search"
                value={searchText}
                onChange={(event) => setSearchText(event.target.value)}
                maxLength={SEARCH_MAX_LENGTH}
                placeholder={t('images.gallery.searchPlaceholder')}
                aria-label={t('images.gallery.searchLabel')}
              />
            </InputGroup>
            <Group attached role="group" aria-label={t('images.gallery.viewLabel')}>
              <IconButton
                aria-label={t('images.gallery.gridView')}
                aria-pressed={view === 'grid'}
                variant={view === 'grid' ? 'subtle' : 'outline'}
                onClick={() => setView('grid')}
              >
                <GridViewIcon />
              </IconButton>
              <IconButton
                aria-label={t('images.gallery.listView')}
                aria-pressed={view === 'list'}
                variant={view === 'list' ? 'subtle' : 'outline'}
                onClick={() => setView('list')}
              >
                <ListViewIcon />
              </IconButton>
            </Group>
          </Flex>
        </Flex>
        {TABS.map((key) => (
          <Tabs.Content key={key} value={key} p="0">
            <Box>
              <ImageBrowser
                tab={key}
                search={search}
                view={view}
                isBlurred={isBlurred}
                onReveal={reveal}
                onOpen={(image) => setOpened({ image, tab: key })}
              />
            </Box>
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <ImageDetailsDialog
        image={openedImage}
        tab={opened?.tab ?? tab}
        blurred={openedImage !== null && isBlurred(openedImage)}
        onReveal={() => openedImage && reveal(openedImage)}
        onClose={() => setOpened(null)}
      />
    </Stack>
  );
}
