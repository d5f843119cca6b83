import { Button, Card, CloseButton, Dialog, Flex, Heading, HStack, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { handleUnauthorized } from '../../../lib/error-toasts';
import { ApiError } from '../../../lib/session-api';
import { FormField } from '../../../components/form-field';
import { ACCOUNT_EXPORT_PATH, deleteAccount } from '../profile-api';
import { FULL_ON_PHONES_CONTENT } from '../../../components/responsive-dialog';

function DeleteAccountForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [deleting, setDeleting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return;
    setDeleting(true);
    setProblem(undefined);
    try {
      await deleteAccount(password);
      // The session is gone with the account: a full load starts the app again, signed out.
      window.location.assign('/');
    } catch (error) {
      setDeleting(false);
      if (ApiError.is(error) && error.code === 'UNAUTHENTICATED') handleUnauthorized();
      else setProblem((ApiError.is(error) && error.serverMessage) || t('profile.data.deleteFailed'));
    }
  };

  return (
    <Stack as="form" gap="0" onSubmit={(event: FormEvent) => void submit(event)}>
      <Dialog.Body>
        <Stack gap="4">
          <Text color="fg.muted">{t('profile.data.deleteText')}</Text>
          <FormField label={t('profile.data.password')} error={problem}>
            <Input type="password" value={password} onChange={(event) => setPassword(event.target.value)} autoComplete="current-password" />
          </FormField>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Flex gap="3" justify="flex-end" w="full">
          <Button variant="outline" onClick={onClose}>
            {t('profile.edit.cancel')}
          </Button>
          <Button type="submit" colorPalette="red" disabled={!password} loading={deleting} loadingText={t('profile.data.deleting')}>
            {t('profile.data.confirmDelete')}
          </Button>
        </Flex>
      </Dialog.Footer>
    </Stack>
  );
}

/** Everything the member owns as one download, and deleting the account (after the password). */
export function AccountDataSection() {
  const { t } = useTranslation();
  const [confirmOpen, setConfirmOpen] = useState(false);
  return (
    <Card.Root as="section" aria-labelledby="your-data-heading" variant="outline" data-testid="your-data">
      <Card.Body gap="3">
        <Heading as="h2" id="your-data-heading" size="md">
          {t('profile.data.heading')}
        </Heading>
        <Text color="fg.muted">{t('profile.data.text')}</Text>
        <HStack gap="3" wrap="wrap">
          <Button asChild variant="outline">
            <a href={ACCOUNT_EXPORT_PATH} download>
              {t('profile.data.export')}
            </a>
          </Button>
          <Button variant="outline" colorPalette="red" onClick={() => setConfirmOpen(true)}>
            {t('profile.data.delete')}
          </Button>
        </HStack>
      </Card.Body>
      <Dialog.Root
        open={confirmOpen}
        onOpenChange={(details) => !details.open && setConfirmOpen(false)}
        role="alertdialog"
        placement="center"
        size={{ base: 'full', md: 'md' }}
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="delete-account-dialog" {...FULL_ON_PHONES_CONTENT}>
              <Dialog.Header>
                <Dialog.Title>{t('profile.data.deleteTitle')}</Dialog.Title>
              </Dialog.Header>
              {confirmOpen && <DeleteAccountForm onClose={() => setConfirmOpen(false)} />}
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('common.close')} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Card.Root>
  );
}
