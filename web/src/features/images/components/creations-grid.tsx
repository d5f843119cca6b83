import { Button, Center, chakra, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { ImageFieldsFragment } from '../../../gql/graphql';
import { ImageIcon } from '../../../components/icons/icons';
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
  // A picture that fails to load is left out (spec §8).
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const shown = images.filter((image) => !failed.has(image.id));

  if (loading && images.length === 0) {
    return (
      <SimpleGrid columns={{ base: 3, sm: 4, md: 6 }} gap="3" aria-hidden="true">
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} aspectRatio={1} rounded="md" />
        ))}
      </SimpleGrid>
    );
  }
  if (shown.length === 0) {
    return (
      <Center borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" py="10" px="6">
        <Stack align="center" textAlign="center" gap="3">
          <ImageIcon boxSize="8" color="purple.300" />
          <Text fontWeight="medium">{error ? 'Your images could not be loaded.' : 'No images yet'}</Text>
          {error ? (
            <Button size="sm" variant="outline" onClick={onRetry}>
              Try again
            </Button>
          ) : (
            <Text fontSize="sm" color="fg.muted">
              Describe an image above and it will be kept here.
            </Text>
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
            Show more
          </Button>
        </Center>
      )}
    </Stack>
  );
}
