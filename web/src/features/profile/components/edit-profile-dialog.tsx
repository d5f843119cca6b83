import { Button, CloseButton, Dialog, Flex, HStack, Input, Portal, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useApolloClient } from '@apollo/client/react';
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../../../auth/auth-context';
import { MeDocument } from '../../../auth/auth-operations';
import { handleUnauthorized, showErrorToast } from '../../../lib/error-toasts';
import { getFieldErrors } from '../../../lib/graphql-errors';
import { ApiError } from '../../../lib/session-api';
import { showToast } from '../../../lib/toaster';
import { FormField } from '../../../components/form-field';
import { UserAvatar } from '../../../components/user-avatar';
import { PICTURE_TYPES, checkPicture, uploadProfilePicture, type PictureProblem } from '../profile-api';
import { UpdateProfileDocument } from '../operations';
import { FULL_ON_PHONES_CONTENT } from '../../../components/responsive-dialog';
import { useMutationToast } from '../../../hooks/use-mutation-toast';

const blankToNull = (value: string) => value.trim() || null;

/** A local preview of the chosen file, released when it changes or the dialog closes. */
function usePreviewUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

function EditProfileForm({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useApolloClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [picture, setPicture] = useState<File | null>(null);
  const [pictureProblem, setPictureProblem] = useState<PictureProblem | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const mutation = useMutationToast();
  const [uploading, setUploading] = useState(false);
  const saving = mutation.pending || uploading;
  const preview = usePreviewUrl(picture);
  const failedToast = { title: t('profile.edit.failed'), variant: 'destructive' as const };

  const choosePicture = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!file) return;
    const problem = checkPicture(file);
    setPictureProblem(problem);
    setPicture(problem ? null : file);
  };

  /** Saves changed names; false when that failed (the member has been told). */
  const saveNames = async (): Promise<boolean> => {
    const changes = { firstName: blankToNull(firstName), lastName: blankToNull(lastName) };
    if (changes.firstName === (user.firstName ?? null) && changes.lastName === (user.lastName ?? null)) return true;
    // The answer is the member's User entry: the cache (and so the navigation bar) updates with it.
    const data = await mutation.run({
      mutation: UpdateProfileDocument,
      variables: { input: changes },
      failure: failedToast,
      handleError: (error) => {
        setFieldErrors(getFieldErrors(error));
        return false;
      },
    });
    return data !== undefined;
  };

  /** Uploads a chosen picture; false when that failed (the member has been told). */
  const savePicture = async (): Promise<boolean> => {
    if (!picture) return true;
    setUploading(true);
    try {
      await uploadProfilePicture(picture);
      await client.query({ query: MeDocument, fetchPolicy: 'network-only' });
      return true;
    } catch (error) {
      if (ApiError.is(error) && error.code === 'UNAUTHENTICATED') handleUnauthorized();
      else if (ApiError.is(error)) showToast({ ...failedToast, description: error.serverMessage ?? t('profile.edit.failed') });
      else showErrorToast(error, failedToast);
      return false;
    } finally {
      setUploading(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldErrors({});
    if (!(await saveNames()) || !(await savePicture())) return;
    showToast({ title: t('profile.edit.saved') });
    onClose();
  };

  return (
    <Stack as="form" gap="0" onSubmit={(event: FormEvent) => void submit(event)}>
      <Dialog.Body>
        <Stack gap="5">
          <HStack gap="4" align="center">
            <UserAvatar user={{ ...user, profileImageUrl: preview ?? user.profileImageUrl }} size="2xl" aria-hidden="true" />
            <Stack gap="1">
              <Text fontWeight="medium" id="profile-picture-label">
                {t('profile.edit.picture')}
              </Text>
              <HStack>
                <Button size="sm" variant="outline" onClick={() => fileInput.current?.click()} aria-describedby="profile-picture-hint">
                  {t('profile.edit.choosePicture')}
                </Button>
                <VisuallyHidden asChild>
                  <input
                    ref={fileInput}
                    type="file"
                    accept={PICTURE_TYPES.join(',')}
                    aria-labelledby="profile-picture-label"
                    onChange={choosePicture}
                    tabIndex={-1}
                    data-testid="profile-picture-input"
                  />
                </VisuallyHidden>
              </HStack>
              <Text
                fontSize="xs"
                color={pictureProblem ? 'fg.error' : 'fg.muted'}
                id="profile-picture-hint"
                role={pictureProblem ? 'alert' : undefined}
              >
                {pictureProblem === 'wrongType' && t('profile.edit.pictureWrongType')}
                {pictureProblem === 'tooLarge' && t('profile.edit.pictureTooLarge')}
                {!pictureProblem && (picture ? t('profile.edit.pictureChosen', { name: picture.name }) : t('profile.edit.pictureHint'))}
              </Text>
            </Stack>
          </HStack>
          <FormField label={t('profile.edit.firstName')} error={fieldErrors['firstName']}>
            <Input value={firstName} onChange={(event) => setFirstName(event.target.value)} autoComplete="given-name" maxLength={100} />
          </FormField>
          <FormField label={t('profile.edit.lastName')} error={fieldErrors['lastName']}>
            <Input value={lastName} onChange={(event) => setLastName(event.target.value)} autoComplete="family-name" maxLength={100} />
          </FormField>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Flex gap="3" justify="flex-end" w="full">
          <Button variant="outline" onClick={onClose}>
            {t('profile.edit.cancel')}
          </Button>
          <Button type="submit" colorPalette="purple" loading={saving} loadingText={t('profile.edit.saving')}>
            {t('profile.edit.save')}
          </Button>
        </Flex>
      </Dialog.Footer>
    </Stack>
  );
}

/** SPEC §2: Edit Profile (first and last name, profile picture). */
export function EditProfileDialog({ user, open, onClose }: { user: CurrentUser; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && onClose()} size={{ base: 'full', md: 'md' }} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="edit-profile-dialog" {...FULL_ON_PHONES_CONTENT}>
            <Dialog.Header>
              <Dialog.Title>{t('profile.edit.title')}</Dialog.Title>
            </Dialog.Header>
            {open && <EditProfileForm user={user} onClose={onClose} />}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
