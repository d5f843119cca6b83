import { Box, chakra, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { ImageFieldsFragment } from '../../../gql/graphql';
import { creatorName, describeSettings, formatImageDate, likesLabel } from '../image-settings';
import { BLURRED_STYLE, ModerationStateBadge, RatingBadge, RevealOverlay } from '../../moderation/components/rating-parts';
import { ImageFrame } from './image-frame';
import { HeartIcon } from '../../../components/icons/media-icons';
import { DemoBadge, VisibilityBadge } from './media-parts';

export type GalleryView = 'grid' | 'list';
export type GalleryTab = 'public' | 'mine';

function Likes({ image }: { image: ImageFieldsFragment }) {
  return (
    <HStack as="span" gap="1" color={image.likedByMe ? 'pink.300' : 'fg.muted'} fontSize="sm" data-testid="card-likes">
      <HeartIcon boxSize="3.5" filled={image.likedByMe} />
      <span>{likesLabel(image.likes)}</span>
    </HStack>
  );
}

/**
 * One gallery image, as a button that opens its details. A fixed-proportion frame with the
 * ThumbHash underneath keeps the grid still while pictures arrive; `onError` hides a broken one.
 * A `blurred` picture (a rating the member chose to blur) gets a Show button laid over it: a sibling
 * of the card's button, since buttons cannot nest.
 */
export function ImageCard({
  image,
  view,
  tab,
  blurred = false,
  onOpen,
  onReveal,
  onError,
}: {
  image: ImageFieldsFragment;
  view: GalleryView;
  tab: GalleryTab;
  blurred?: boolean;
  onOpen: () => void;
  onReveal?: () => void;
  onError: () => void;
}) {
  const { t } = useTranslation();
  const creator = tab === 'public' ? creatorName(image.user) : null;
  const meta = (
    <Flex as="span" gap="2" align="center" wrap="wrap" fontSize="sm" color="fg.muted">
      <Likes image={image} />
      {creator && (
        <Text as="span" truncate>
          {t('images.gallery.by', { name: creator })}
        </Text>
      )}
      {tab === 'mine' && <VisibilityBadge isPublic={image.isPublic} />}
      {image.isPublic && <RatingBadge rating={image.rating} />}
      {tab === 'mine' && <ModerationStateBadge state={image.moderationState} />}
    </Flex>
  );
  const frameStyle = blurred ? BLURRED_STYLE : undefined;

  const common = {
    type: 'button' as const,
    onClick: onOpen,
    w: 'full',
    textAlign: 'start' as const,
    rounded: 'lg',
    borderWidth: '1px',
    borderColor: 'border.muted',
    bg: 'bg.subtle',
    overflow: 'hidden',
    cursor: 'pointer',
    transition: 'border-color 0.15s, transform 0.15s',
    _hover: { borderColor: 'purple.500' },
    focusRing: 'outside' as const,
    'data-testid': 'gallery-card',
    'data-image-id': image.id,
  };

  if (view === 'list') {
    return (
      <Box position="relative" data-blurred={blurred ? 'true' : undefined}>
        <chakra.button {...common} display="flex" gap="4" p="3" alignItems="center">
          <Box as="span" display="block" position="relative" w={{ base: '20', sm: '28' }} flexShrink={0} overflow="hidden" rounded="md">
            <ImageFrame image={image} alt="" ratio={1} sizes="112px" rounded="md" onError={onError} css={frameStyle} />
            {image.isDemo && <DemoBadge position="absolute" top="1" insetStart="1" size="xs" />}
          </Box>
          <Stack as="span" gap="1.5" minW="0" flex="1">
            <Text as="span" fontWeight="medium" lineClamp={2} data-testid="card-prompt">
              {image.prompt}
            </Text>
            <Text as="span" fontSize="xs" color="fg.muted">
              {describeSettings(image.settings)} · <time dateTime={image.createdAt}>{formatImageDate(image.createdAt)}</time>
            </Text>
            {meta}
          </Stack>
        </chakra.button>
        {blurred && onReveal && (
          <RevealOverlay
            rating={image.rating}
            onReveal={onReveal}
            compact
            top="50%"
            transform="translateY(-50%)"
            insetStart="calc(0.75rem + 1px)"
            w={{ base: '20', sm: '28' }}
            aspectRatio={1}
          />
        )}
      </Box>
    );
  }

  return (
    <Box position="relative" h="full" data-blurred={blurred ? 'true' : undefined}>
      <chakra.button
        {...common}
        display="block"
        h="full"
        _hover={{ borderColor: 'purple.500', transform: blurred ? undefined : 'translateY(-2px)' }}
      >
        <Box as="span" display="block" position="relative" overflow="hidden">
          <ImageFrame
            image={image}
            alt=""
            ratio={1}
            sizes="(min-width: 1280px) 300px, (min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw"
            onError={onError}
            css={frameStyle}
          />
          {image.isDemo && <DemoBadge position="absolute" top="2" insetStart="2" />}
        </Box>
        <Stack as="span" gap="1.5" p="3">
          <Text as="span" fontWeight="medium" fontSize="sm" lineClamp={2} data-testid="card-prompt">
            {image.prompt}
          </Text>
          {meta}
        </Stack>
      </chakra.button>
      {blurred && onReveal && <RevealOverlay rating={image.rating} onReveal={onReveal} top="1px" insetX="1px" aspectRatio={1} />}
    </Box>
  );
}
