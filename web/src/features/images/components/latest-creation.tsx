import { Box, Button, Center, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentRating, ImageFieldsFragment } from '../../../gql/graphql';
import { describeSettings, formatImageDate } from '../image-settings';
import { DownloadIcon } from '../../../components/icons/chat-icons';
import { ImageIcon } from '../../../components/icons/icons';
import { ModerationStateBadge, RatingBadge } from '../../moderation/components/rating-parts';
import { ImageFrame } from './image-frame';
import { DemoBadge, VisibilityBadge, VisibilitySwitch } from './media-parts';

/** The tallest the picture is drawn; a portrait image gets narrower instead of taller. */
const MAX_IMAGE_HEIGHT = '32rem';

/** Spec §2: the image just generated (or picked from Your Creations), with Download and the visibility switch. */
export function LatestCreation({
  image,
  downloading,
  updatingVisibility,
  onDownload,
  onVisibilityChange,
}: {
  image: ImageFieldsFragment | null;
  downloading: boolean;
  updatingVisibility: boolean;
  onDownload: () => void;
  onVisibilityChange: (isPublic: boolean, rating?: ContentRating) => void;
}) {
  const { t } = useTranslation();
  const [brokenId, setBrokenId] = useState<string | null>(null);

  if (!image) {
    return (
      <Center flex="1" minH="64" borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" p="6">
        <Stack align="center" textAlign="center" gap="3" color="fg.muted">
          <ImageIcon boxSize="10" color="purple.300" />
          <Text>{t('images.latest.empty')}</Text>
        </Stack>
      </Center>
    );
  }

  const ratio = image.width > 0 && image.height > 0 ? image.width / image.height : 1;
  return (
    <Stack gap="4" data-testid="latest-creation" data-image-id={image.id}>
      <Box position="relative" mx="auto" w="full" maxW={`calc(${MAX_IMAGE_HEIGHT} * ${ratio})`}>
        {brokenId === image.id ? (
          <Center aspectRatio={ratio} bg="bg.muted" rounded="lg" color="fg.muted" p="4" textAlign="center">
            {t('images.latest.broken')}
          </Center>
        ) : (
          <ImageFrame
            image={image}
            alt={image.prompt}
            sizes="(min-width: 1024px) 40vw, 100vw"
            fit="contain"
            eager
            rounded="lg"
            onError={() => setBrokenId(image.id)}
            data-testid="latest-image"
          />
        )}
        {image.isDemo && <DemoBadge position="absolute" top="2" insetStart="2" />}
      </Box>
      <Stack gap="1">
        <Text fontWeight="medium" data-testid="latest-prompt" wordBreak="break-word">
          {image.prompt}
        </Text>
        <HStack gap="2" wrap="wrap" fontSize="sm" color="fg.muted">
          <Text data-testid="latest-settings">{describeSettings(image.settings)}</Text>
          <Text aria-hidden="true">·</Text>
          <time dateTime={image.createdAt}>{formatImageDate(image.createdAt)}</time>
        </HStack>
        <HStack gap="2" wrap="wrap">
          <VisibilityBadge isPublic={image.isPublic} />
          {image.isPublic && <RatingBadge rating={image.rating} />}
          <ModerationStateBadge state={image.moderationState} />
        </HStack>
      </Stack>
      <Flex gap="4" align={{ base: 'stretch', sm: 'center' }} justify="space-between" direction={{ base: 'column', sm: 'row' }}>
        <VisibilitySwitch image={image} updating={updatingVisibility} onChange={onVisibilityChange} />
        <Button variant="outline" onClick={onDownload} loading={downloading} flexShrink={0}>
          <DownloadIcon />
          {t('images.latest.download')}
        </Button>
      </Flex>
    </Stack>
  );
}

export function LatestCreationHeading({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <Heading as="h2" id={id} size="lg">
      {t('images.generator.latestHeading')}
    </Heading>
  );
}
