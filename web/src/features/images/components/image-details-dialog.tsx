import { Box, Button, CloseButton, Dialog, Flex, Grid, Portal, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ImageFieldsFragment } from '../../../gql/graphql';
import { creatorName, formatImageDate, generatorHandOffState, likesLabel, qualityLabel, sizeLabel, styleLabel } from '../image-settings';
import { DownloadIcon } from '../../../components/icons/chat-icons';
import { FlagIcon } from '../../../components/icons/icons';
import { BLURRED_STYLE, ModerationStateBadge, RatingBadge, RevealOverlay } from '../../moderation/components/rating-parts';
import { ReportDialog } from '../../moderation/components/report-dialog';
import { ImageFrame } from './image-frame';
import type { GalleryTab } from './image-card';
import { HeartIcon, WandIcon } from '../../../components/icons/media-icons';
import { DemoBadge, VisibilitySwitch } from './media-parts';
import { likeAction } from '../likes';
import { useImageDelete, useImageDownload, useImageLike, useImageVisibility } from '../hooks/use-image-actions';

function Detail({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <Text as="dt" color="fg.muted" fontSize="sm">
        {label}
      </Text>
      <Text as="dd" fontSize="sm" m="0" data-testid={testId}>
        {children}
      </Text>
    </>
  );
}

/** The advanced settings an image was drawn with, those that were set (the seed always is, where the renderer takes one). */
function AdvancedDetails({ settings }: { settings: ImageFieldsFragment['settings'] }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => new Intl.NumberFormat(i18n.language, { useGrouping: false }).format(value);
  return (
    <>
      {settings.negativePrompt && (
        <Detail label={t('images.details.negativePrompt')} testId="details-negative-prompt">
          {settings.negativePrompt}
        </Detail>
      )}
      {settings.seed != null && (
        <Detail label={t('images.details.seed')} testId="details-seed">
          {number(settings.seed)}
        </Detail>
      )}
      {settings.steps != null && (
        <Detail label={t('images.details.steps')} testId="details-steps">
          {number(settings.steps)}
        </Detail>
      )}
      {settings.cfgScale != null && (
        <Detail label={t('images.details.cfgScale')} testId="details-cfg-scale">
          {number(settings.cfgScale)}
        </Detail>
      )}
      {settings.sampler && (
        <Detail label={t('images.details.sampler')} testId="details-sampler">
          {settings.sampler}
        </Detail>
      )}
    </>
  );
}

/**
 * Image Details (spec §2): the picture, its prompt and settings (model, size, quality, style), the
 * creator (public tab), rating, likes and date; Download, Like or Unlike (public tab, owners too: decision 040),
 * Report (public tab, someone else's image: the server's `isMine` says whose), the visibility switch with the rating to publish at (personal tab) and "Use these
 * settings", which opens the generator prefilled. A `blurred` picture shows once Show is pressed.
 */
export function ImageDetailsDialog({
  image,
  tab,
  blurred = false,
  onReveal,
  onClose,
}: {
  image: ImageFieldsFragment | null;
  tab: GalleryTab;
  blurred?: boolean;
  onReveal?: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [reporting, setReporting] = useState<string | null>(null);
  const { download, downloadingId } = useImageDownload();
  const { toggleLike, likingId } = useImageLike();
  const { setVisibility, updatingId } = useImageVisibility();
  const { remove, deletingId } = useImageDelete();
  // Deleting asks twice: the first press arms the button for this image, the second deletes.
  const [armedDeleteId, setArmedDeleteId] = useState<string | null>(null);
  const confirmingDelete = image != null && armedDeleteId === image.id;
  // Closing disarms: reopening the image asks twice again.
  const close = () => {
    setArmedDeleteId(null);
    onClose();
  };
  const creator = image && tab === 'public' ? creatorName(image.user) : null;
  const ratio = image && image.width > 0 && image.height > 0 ? image.width / image.height : 1;

  const openInGenerator = (current: ImageFieldsFragment) => {
    const { size, quality, style, ...advanced } = current.settings;
    void navigate('/generator', { state: generatorHandOffState({ prompt: current.prompt, size, quality, style, advanced }) });
  };

  return (
    <Dialog.Root
      open={image !== null}
      onOpenChange={(details) => !details.open && close()}
      size={{ base: 'full', md: 'xl' }}
      scrollBehavior="inside"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="image-details">
            <Dialog.Header>
              <Dialog.Title>{t('images.details.title')}</Dialog.Title>
            </Dialog.Header>
            {image && (
              <>
                <Dialog.Body>
                  <Stack gap="5">
                    <Box position="relative" mx="auto" w="full" maxW={`calc(26rem * ${ratio})`} overflow="hidden" rounded="md">
                      <ImageFrame
                        image={image}
                        alt={image.prompt}
                        fit="contain"
                        eager
                        sizes="(min-width: 768px) 36rem, 100vw"
                        rounded="md"
                        css={blurred ? BLURRED_STYLE : undefined}
                      />
                      {image.isDemo && <DemoBadge position="absolute" top="2" insetStart="2" zIndex="2" />}
                      {blurred && onReveal && <RevealOverlay rating={image.rating} onReveal={onReveal} inset="0" />}
                    </Box>
                    <Stack gap="1">
                      <Text fontSize="sm" color="fg.muted">
                        {t('images.details.prompt')}
                      </Text>
                      <Text wordBreak="break-word" data-testid="details-prompt">
                        {image.prompt}
                      </Text>
                    </Stack>
                    <Grid as="dl" templateColumns="max-content 1fr" columnGap="6" rowGap="1.5" m="0">
                      <Detail label={t('images.details.model')} testId="details-model">
                        {image.isDemo ? t('images.demo.model', { model: image.model }) : image.model}
                      </Detail>
                      <Detail label={t('images.details.size')}>{sizeLabel(image.settings.size)}</Detail>
                      <Detail label={t('images.details.quality')}>{qualityLabel(image.settings.quality)}</Detail>
                      <Detail label={t('images.details.style')}>{styleLabel(image.settings.style)}</Detail>
                      <AdvancedDetails settings={image.settings} />
                      {tab === 'public' && (
                        <Detail label={t('images.details.creator')} testId="details-creator">
                          {creator ?? t('images.details.anonymous')}
                        </Detail>
                      )}
                      {image.isPublic && (
                        <Detail label={t('ratings.label')} testId="details-rating">
                          <RatingBadge rating={image.rating} />
                        </Detail>
                      )}
                      {tab === 'mine' && image.moderationState !== 'VISIBLE' && (
                        <Detail label={t('moderation.case.state')}>
                          <ModerationStateBadge state={image.moderationState} />
                        </Detail>
                      )}
                      <Detail label={t('images.details.likes')} testId="details-likes">
                        {likesLabel(image.likes)}
                      </Detail>
                      <Detail label={t('images.details.created')}>
                        <time dateTime={image.createdAt}>{formatImageDate(image.createdAt)}</time>
                      </Detail>
                    </Grid>
                    {tab === 'mine' && (
                      <VisibilitySwitch
                        image={image}
                        updating={updatingId === image.id}
                        onChange={(isPublic, rating) => void setVisibility(image, isPublic, rating)}
                      />
                    )}
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Flex gap="2" wrap="wrap" justify="flex-end" w="full">
                    {tab === 'mine' && (
                      <Button
                        variant={confirmingDelete ? 'solid' : 'ghost'}
                        colorPalette="red"
                        me="auto"
                        loading={deletingId === image.id}
                        onClick={() => {
                          if (!confirmingDelete) return setArmedDeleteId(image.id);
                          void remove(image).then((deleted) => deleted && close());
                        }}
                      >
                        {confirmingDelete ? t('images.details.deleteConfirm') : t('images.details.delete')}
                      </Button>
                    )}
                    {tab === 'public' && !image.isMine && (
                      <Button variant="ghost" colorPalette="red" me="auto" onClick={() => setReporting(image.id)}>
                        <FlagIcon />
                        {t('report.action')}
                      </Button>
                    )}
                    {tab === 'public' && (
                      <Button
                        variant="outline"
                        colorPalette="pink"
                        onClick={() => void toggleLike(image)}
                        loading={likingId === image.id}
                        data-liked={image.likedByMe ? 'true' : undefined}
                        data-testid="like-button"
                      >
                        <HeartIcon filled={image.likedByMe} />
                        {likeAction(image) === 'like' ? t('images.details.like') : t('images.details.unlike')}
                      </Button>
                    )}
                    <Button variant="outline" onClick={() => void download(image)} loading={downloadingId === image.id}>
                      <DownloadIcon />
                      {t('images.details.download')}
                    </Button>
                    <Button colorPalette="purple" onClick={() => openInGenerator(image)}>
                      <WandIcon />
                      {t('images.details.useSettings')}
                    </Button>
                  </Flex>
                </Dialog.Footer>
              </>
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
      <ReportDialog target={image && reporting === image.id ? { kind: 'IMAGE', id: image.id } : null} onClose={() => setReporting(null)} />
    </Dialog.Root>
  );
}
