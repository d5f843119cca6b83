import { Alert, Button, Center, CloseButton, Dialog, Flex, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { useApolloClient } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { RatingDisplay } from '../../../gql/graphql';
import { TOASTS } from '../../../lib/error-toasts';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { RATING_DISPLAYS, type RatedLevel, type RatingPreferencesValue } from '../content-ratings';
import { ChoiceGroup } from '../../../components/choice-group';
import { PublicCharactersDocument } from '../../characters/operations';
import { PublicImagesDocument } from '../../images/operations';
import { UpdateRatingPreferencesDocument } from '../operations';
import { useContentSettings } from '../hooks/use-content-settings';
import { FULL_ON_PHONES_CONTENT } from '../../../components/responsive-dialog';

const LEVELS: readonly RatedLevel[] = ['suggestive', 'explicit'];

function PreferencesForm({
  initial,
  heldBackForAge,
  onClose,
}: {
  initial: RatingPreferencesValue;
  heldBackForAge: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useApolloClient();
  // Only the two choices: the cached object also carries its __typename, which the input type refuses.
  const [values, setValues] = useState<RatingPreferencesValue>({ suggestive: initial.suggestive, explicit: initial.explicit });
  const mutation = useMutationToast();
  const saving = mutation.pending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const data = await mutation.run({
      mutation: UpdateRatingPreferencesDocument,
      variables: { input: { suggestive: values.suggestive, explicit: values.explicit } },
      success: TOASTS.preferencesSaved,
      failure: TOASTS.preferencesFailed,
    });
    if (!data) return;
    // Hidden ratings are left out by the server: the public lists are read again.
    void client.refetchQueries({ include: [PublicImagesDocument, PublicCharactersDocument] });
    onClose();
  };

  return (
    <Stack as="form" gap="0" onSubmit={(event: FormEvent) => void submit(event)} id="content-preferences-form">
      <Dialog.Body>
        <Stack gap="5">
          <Text color="fg.muted" fontSize="sm">
            {t('contentPreferences.intro')}
          </Text>
          {heldBackForAge && (
            <Alert.Root status="info" size="sm" data-testid="preferences-age-note">
              <Alert.Indicator />
              <Alert.Description>{t('contentPreferences.ageNote')}</Alert.Description>
            </Alert.Root>
          )}
          {LEVELS.map((level) => (
            <ChoiceGroup<RatingDisplay>
              key={level}
              label={t(`contentPreferences.${level}`)}
              value={values[level]}
              onChange={(display) => setValues((current) => ({ ...current, [level]: display }))}
              inline
              testId={`preference-${level}`}
              choices={RATING_DISPLAYS.map((display) => ({ value: display, label: t(`contentPreferences.options.${display}`) }))}
            />
          ))}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Flex gap="3" justify="flex-end" w="full">
          <Button variant="outline" onClick={onClose}>
            {t('contentPreferences.cancel')}
          </Button>
          <Button type="submit" colorPalette="purple" loading={saving}>
            {t('contentPreferences.save')}
          </Button>
        </Flex>
      </Dialog.Footer>
    </Stack>
  );
}

function PreferencesContent({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { preferences, heldBackForAge, error, refetch } = useContentSettings();
  if (preferences) return <PreferencesForm initial={preferences} heldBackForAge={heldBackForAge} onClose={onClose} />;
  return (
    <Dialog.Body>
      <Center py="8">
        {error ? (
          <Stack align="center" gap="3">
            <Text>{t('contentPreferences.loadFailed')}</Text>
            <Button size="sm" variant="outline" onClick={refetch}>
              {t('moderation.queue.retry')}
            </Button>
          </Stack>
        ) : (
          <Spinner color="purple.300" aria-label={t('common.loading')} />
        )}
      </Center>
    </Dialog.Body>
  );
}

/** Show, blur or hide public content rated Suggestive and Explicit (from the Account menu). */
export function ContentPreferencesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: 'full', md: 'md' }}
      scrollBehavior="inside"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="content-preferences" {...FULL_ON_PHONES_CONTENT}>
            <Dialog.Header>
              <Dialog.Title>{t('contentPreferences.title')}</Dialog.Title>
            </Dialog.Header>
            {open && <PreferencesContent onClose={onClose} />}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
