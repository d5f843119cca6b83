import { Box, Button, Card, Center, CloseButton, Dialog, Heading, Portal, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { handleUnauthorized } from '../../../lib/error-toasts';
import { deleteSelfAiPhoto, isSignedOutError, type SelfAiPhoto } from '../self-ai-api';
import { showToast } from '../../../lib/toaster';
import { TrashIcon } from '../../../components/icons/chat-icons';
import type { useSelfAiPhotos } from '../hooks/use-self-ai-photos';

type Photos = ReturnType<typeof useSelfAiPhotos>;

function useDate() {
  const { i18n } = useTranslation();
  return (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime())
      ? ''
      : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  };
}

function DeletePhotoDialog({
  photo,
  onClose,
  onDeleted,
}: {
  photo: SelfAiPhoto | null;
  onClose: () => void;
  onDeleted: (id: string) => void;
}) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  const confirm = async () => {
    if (!photo) return;
    setDeleting(true);
    try {
      await deleteSelfAiPhoto(photo.id);
      onDeleted(photo.id);
      showToast({ title: t('selfAi.photos.deletedTitle'), description: t('selfAi.photos.deletedText') });
      onClose();
    } catch (error) {
      if (isSignedOutError(error)) handleUnauthorized();
      else
        showToast({
          title: t('selfAi.photos.deleteFailedTitle'),
          description: t('selfAi.photos.deleteFailedText'),
          variant: 'destructive',
        });
    } finally {
      setDeleting(false);
    }
  };
  return (
    <Dialog.Root open={photo !== null} onOpenChange={(details) => !details.open && onClose()} role="alertdialog" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{t('selfAi.photos.confirmTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted">{t('selfAi.photos.confirmText')}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('selfAi.photos.cancel')}
              </Button>
              <Button colorPalette="red" loading={deleting} onClick={() => void confirm()}>
                {t('selfAi.photos.confirm')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('selfAi.photos.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** "Your photos": the member's Self-AI photos (served to their owner only), each with a Delete button that asks first. */
export function SelfAiPhotos({ photos }: { photos: Photos }) {
  const { t } = useTranslation();
  const formatDate = useDate();
  const [deleting, setDeleting] = useState<SelfAiPhoto | null>(null);
  const { state } = photos;

  return (
    <Stack as="section" aria-labelledby="self-ai-photos" gap="4">
      <Heading as="h2" size="lg" id="self-ai-photos">
        {t('selfAi.photos.heading')}
      </Heading>
      {state.status === 'loading' && (
        <Center py="6">
          <Spinner color="purple.300" aria-label={t('common.loading')} />
        </Center>
      )}
      {state.status === 'error' && (
        <Stack align="flex-start" gap="2">
          <Text>{t('selfAi.photos.loadFailed')}</Text>
          <Button size="sm" variant="outline" onClick={photos.reload}>
            {t('selfAi.photos.retry')}
          </Button>
        </Stack>
      )}
      {state.status === 'ready' && state.photos.length === 0 && (
        <Text color="fg.muted" data-testid="self-ai-photos-empty">
          {t('selfAi.photos.empty')}
        </Text>
      )}
      {state.status === 'ready' && state.photos.length > 0 && (
        <SimpleGrid as="ul" columns={{ base: 2, sm: 3, md: 5 }} gap="4" listStyleType="none" data-testid="self-ai-photo-grid">
          {state.photos.map((photo) => {
            const date = formatDate(photo.createdAt);
            return (
              <Card.Root as="li" key={photo.id} variant="outline" overflow="hidden" data-testid="self-ai-photo" data-photo-id={photo.id}>
                <Box aspectRatio="3 / 4" bg="bg.muted">
                  <img
                    src={photo.url}
                    alt={t('selfAi.photos.alt', { date })}
                    loading="lazy"
                    style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
                  />
                </Box>
                <Card.Footer p="2" justifyContent="flex-end">
                  <Button
                    size="xs"
                    variant="ghost"
                    colorPalette="red"
                    onClick={() => setDeleting(photo)}
                    aria-label={t('selfAi.photos.deleteNamed', { date })}
                  >
                    <TrashIcon />
                    {t('selfAi.photos.delete')}
                  </Button>
                </Card.Footer>
              </Card.Root>
            );
          })}
        </SimpleGrid>
      )}
      <DeletePhotoDialog photo={deleting} onClose={() => setDeleting(null)} onDeleted={photos.remove} />
    </Stack>
  );
}
