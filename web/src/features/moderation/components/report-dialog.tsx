import { Button, CloseButton, Dialog, Field, Flex, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportReason, ReportTargetKind } from '../../../gql/graphql';
import { TOASTS } from '../../../lib/error-toasts';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { getErrorCode } from '../../../lib/graphql-errors';
import { MODERATION_LIMITS, REPORT_REASONS } from '../moderation';
import { showToast } from '../../../lib/toaster';
import { ChoiceGroup } from '../../../components/choice-group';
import { ReportContentDocument } from '../operations';
import { FULL_ON_PHONES_CONTENT } from '../../../components/responsive-dialog';

/** What is being reported: a public image or character, or an AI reply in the member's own chat. */
export interface ReportTarget {
  kind: ReportTargetKind;
  id: string;
}

/**
 * The Report dialog: one of the six reasons (each explained), optional details, Send. The dialog is
 * mounted afresh for each target (see ReportDialog), so nothing carries over between reports.
 */
function ReportForm({ target, onClose }: { target: ReportTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const mutation = useMutationToast();
  const sending = mutation.pending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason) {
      setReasonError(t('report.reasonRequired'));
      return;
    }
    const data = await mutation.run({
      mutation: ReportContentDocument,
      variables: { input: { targetKind: target.kind, targetId: target.id, reason, details: details.trim() || null } },
      success: TOASTS.reportSent,
      failure: TOASTS.reportFailed,
      handleError: (error) => {
        // The item was deleted (or hidden) since the page showed it.
        if (getErrorCode(error) !== 'NOT_FOUND') return false;
        showToast(TOASTS.reportTargetGone);
        return true;
      },
    });
    if (data) onClose();
  };

  return (
    <Dialog.Content as="form" onSubmit={(event) => void submit(event)} data-testid="report-dialog" {...FULL_ON_PHONES_CONTENT}>
      <Dialog.Header>
        <Dialog.Title>{t(`report.titles.${target.kind}`)}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="5">
          <Text color="fg.muted" fontSize="sm">
            {t('report.intro')}
          </Text>
          <ChoiceGroup
            label={t('report.reasonLabel')}
            value={reason}
            onChange={(value) => {
              setReason(value);
              setReasonError(undefined);
            }}
            error={reasonError}
            choices={REPORT_REASONS.map((value) => ({
              value,
              label: t(`report.reasons.${value}.label`),
              description: t(`report.reasons.${value}.description`),
            }))}
          />
          <Field.Root>
            <Field.Label>{t('report.detailsLabel')}</Field.Label>
            <Textarea
              value={details}
              onChange={(event) => setDetails(event.target.value)}
              maxLength={MODERATION_LIMITS.reportDetails}
              rows={3}
            />
            <Field.HelperText>{t('report.detailsHelp', { max: MODERATION_LIMITS.reportDetails })}</Field.HelperText>
          </Field.Root>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Flex gap="3" justify="flex-end" w="full" wrap="wrap">
          <Button variant="outline" onClick={onClose}>
            {t('report.cancel')}
          </Button>
          <Button type="submit" colorPalette="red" loading={sending}>
            {t('report.submit')}
          </Button>
        </Flex>
      </Dialog.Footer>
      <Dialog.CloseTrigger asChild>
        <CloseButton size="sm" aria-label={t('common.close')} />
      </Dialog.CloseTrigger>
    </Dialog.Content>
  );
}

/** Open while `target` is set; closing (sent, cancelled, Escape) calls `onClose`. */
export function ReportDialog({ target, onClose }: { target: ReportTarget | null; onClose: () => void }) {
  return (
    <Dialog.Root
      open={target !== null}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: 'full', md: 'md' }}
      scrollBehavior="inside"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          {target && <ReportForm key={`${target.kind}:${target.id}`} target={target} onClose={onClose} />}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
