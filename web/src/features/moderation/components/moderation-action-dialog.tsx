import { Button, CloseButton, Dialog, Flex, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import { useApolloClient } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentRating, ModerationAction, ModerationCaseFieldsFragment } from '../../../gql/graphql';
import { TOASTS } from '../../../lib/error-toasts';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { translatedErrorMessage } from '../../../lib/error-messages';
import { getErrorCode, getFieldErrors } from '../../../lib/graphql-errors';
import { MODERATION_LIMITS } from '../moderation';
import { showToast } from '../../../lib/toaster';
import { FormField } from '../../../components/form-field';
import { ModerateDocument, ModerationAuditLogDocument, ModerationQueueDocument } from '../operations';
import { RatingChoice } from './rating-parts';
import { FULL_ON_PHONES_CONTENT } from '../../../components/responsive-dialog';

export interface PendingAction {
  action: ModerationAction;
  moderationCase: ModerationCaseFieldsFragment;
}

/** Codes whose server message says more than "it failed" (the moderator's own mistake or a rule). */
const EXPLAINED_CODES = new Set(['FORBIDDEN', 'NOT_FOUND', 'VALIDATION_FAILED', 'CONFLICT']);

function ActionForm({ pending, onClose }: { pending: PendingAction; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useApolloClient();
  const { action, moderationCase } = pending;
  const item = moderationCase.current ?? moderationCase.snapshot;
  const [reason, setReason] = useState('');
  const [rating, setRating] = useState<ContentRating | null>(action === 'CHANGE_RATING' ? (item.rating ?? null) : null);
  const [errors, setErrors] = useState<{ reason?: string; rating?: string }>({});
  const mutation = useMutationToast();
  const saving = mutation.pending;
  const onMember = action === 'SUSPEND' || action === 'UNSUSPEND';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems: { reason?: string; rating?: string } = {};
    if (!reason.trim()) problems.reason = t('moderation.actionDialog.reasonRequired');
    if (action === 'CHANGE_RATING' && !rating) problems.rating = t('moderation.actionDialog.ratingRequired');
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const data = await mutation.run({
      mutation: ModerateDocument,
      variables: {
        input: {
          action,
          targetKind: onMember ? 'MEMBER' : moderationCase.targetKind,
          targetId: onMember ? moderationCase.targetOwnerId : moderationCase.targetId,
          caseId: moderationCase.id,
          reason: reason.trim(),
          rating: action === 'CHANGE_RATING' ? rating : null,
        },
      },
      success: TOASTS.moderationDone,
      failure: TOASTS.moderationFailed,
      handleError: explainFailure,
    });
    if (!data) return;
    // Every open case on the same item was resolved with it: the queue is read again.
    client.cache.evict({ id: client.cache.identify({ __typename: 'ModerationCase', id: moderationCase.id }) });
    client.cache.gc();
    void client.refetchQueries({ include: [ModerationQueueDocument, ModerationAuditLogDocument] });
    onClose();
  };

  /** A field's problem goes under the field; a rule the moderator broke gets the server's explanation. */
  const explainFailure = (error: unknown): boolean => {
    const fieldErrors = getFieldErrors(error);
    if (fieldErrors['reason'] || fieldErrors['rating']) {
      setErrors({ reason: fieldErrors['reason'], rating: fieldErrors['rating'] });
      return true;
    }
    const message = EXPLAINED_CODES.has(getErrorCode(error) ?? '') ? translatedErrorMessage(error) : undefined;
    if (!message) return false;
    showToast({ ...TOASTS.moderationFailed, description: message });
    return true;
  };

  return (
    <Dialog.Content as="form" onSubmit={(event) => void submit(event)} data-testid="moderation-action-dialog" {...FULL_ON_PHONES_CONTENT}>
      <Dialog.Header>
        <Dialog.Title>{t(`moderation.actions.${action}`)}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="5">
          <Text color="fg.muted" fontSize="sm">
            {t(`moderation.actionDialog.explanations.${action}`)}
          </Text>
          {action === 'CHANGE_RATING' && (
            <RatingChoice
              label={t('moderation.actionDialog.ratingLabel')}
              value={rating}
              onChange={(value) => {
                setRating(value);
                setErrors((current) => ({ ...current, rating: undefined }));
              }}
              error={errors.rating}
            />
          )}
          <FormField
            label={t('moderation.actionDialog.reasonLabel')}
            error={errors.reason}
            helperText={t('moderation.actionDialog.reasonHelp')}
          >
            <Textarea
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              maxLength={MODERATION_LIMITS.reason}
              rows={3}
              aria-required="true"
            />
          </FormField>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Flex gap="3" justify="flex-end" w="full" wrap="wrap">
          <Button variant="outline" onClick={onClose}>
            {t('moderation.actionDialog.cancel')}
          </Button>
          <Button type="submit" colorPalette={action === 'REMOVE' || action === 'SUSPEND' ? 'red' : 'purple'} loading={saving}>
            {t('moderation.actionDialog.confirm')}
          </Button>
        </Flex>
      </Dialog.Footer>
      <Dialog.CloseTrigger asChild>
        <CloseButton size="sm" aria-label={t('common.close')} />
      </Dialog.CloseTrigger>
    </Dialog.Content>
  );
}

/** Asks for the reason (and, to change a rating, the new one), then acts on the case's item or its owner. */
export function ModerationActionDialog({ pending, onClose }: { pending: PendingAction | null; onClose: () => void }) {
  return (
    <Dialog.Root
      open={pending !== null}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: 'full', md: 'md' }}
      scrollBehavior="inside"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          {pending && <ActionForm key={`${pending.moderationCase.id}:${pending.action}`} pending={pending} onClose={onClose} />}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
