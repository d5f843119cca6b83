import { Button, Center, chakra, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageFieldsFragment } from '../../../gql/graphql';
import { ImageIcon } from '../../../components/icons/icons';
import { imageListState } from '../list-state';
import { ImageFrame } from './image-frame';

/** Your Creations (spec §2): the member's images as thumbnails; clicking one makes it the latest creation. */
export function CreationsGrid({
  images,
  loading,
  error,
  selectedId,
  hasMore,
  loadingMore,
  onSelect,
  onLoadMore,
  onRetry,
}: {
  images: readonly ImageFieldsFragment[];
  loading: boolean;
  error: boolean;
  selectedId: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  onSelect: (image: ImageFieldsFragment) => void;
  onLoadMore: () => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  // A picture that fails to load is left out (spec §8).
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const shown = images.filter((image) => !failed.has(image.id));
  const state = imageListState({ loading, error, total: images.length, shown: shown.length, hasNextPage: hasMore });

  if (state === 'loading') {
    return (
      <SimpleGrid columns={{ base: 3, sm: 4, md: 6 }} gap="3" aria-hidden="true">
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} aspectRatio={1} rounded="md" />
        ))}
      </SimpleGrid>
    );
  }
  if (state !== 'images') {
    const title = { error: 'loadFailed', empty: 'empty', unavailable: 'picturesFailed' } as const;
    // Pictures that could not load get another chance, with the list read again.
    const retry = () => {
      setFailed(new Set());
      onRetry();
    };
    return (
      <Center borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" py="10" px="6" data-testid="creations-empty">
        <Stack align="center" textAlign="center" gap="3">
          <ImageIcon boxSize="8" color="purple.300" />
          <Text fontWeight="medium">{t(`images.creations.${title[state]}`)}</Text>
          {state === 'empty' ? (
            <Text fontSize="sm" color="fg.muted">
              {t('images.creations.emptyHint')}
            </Text>
          ) : (
            <Button size="sm" variant="outline" onClick={retry}>
              {t('images.creations.retry')}
            </Button>
          )}
        </Stack>
      </Center>
    );
  }
  return (
    <Stack gap="4">
      <SimpleGrid as="ul" columns={{ base: 3, sm: 4, md: 6 }} gap="3" listStyleType="none" m="0" p="0" data-testid="creations-grid">
        {shown.map((image) => {
          const selected = image.id === selectedId;
          return (
            <li key={image.id}>
              <chakra.button
                type="button"
                display="block"
                w="full"
                rounded="md"
                overflow="hidden"
                borderWidth="2px"
                borderColor={selected ? 'purple.400' : 'transparent'}
                cursor="pointer"
                transition="transform 0.15s"
                _hover={{ transform: 'scale(1.02)' }}
                focusRing="outside"
                aria-current={selected ? 'true' : undefined}
                onClick={() => onSelect(image)}
                data-testid="creation-item"
                data-image-id={image.id}
              >
                <ImageFrame
                  image={image}
                  alt={image.prompt}
                  ratio={1}
                  sizes="(min-width: 768px) 16vw, (min-width: 640px) 25vw, 33vw"
                  onError={() => setFailed((current) => new Set(current).add(image.id))}
                />
              </chakra.button>
            </li>
          );
        })}
      </SimpleGrid>
      {hasMore && (
        <Center>
          <Button variant="outline" size="sm" onClick={onLoadMore} loading={loadingMore}>
            {t('images.creations.showMore')}
          </Button>
        </Center>
      )}
    </Stack>
  );
}
