import { Alert, CloseButton, Stack } from '@chakra-ui/react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentRating, NoticeKind, ReportTargetKind } from '../../../gql/graphql';
import { isUnauthenticatedError } from '../../../lib/graphql-errors';
import { DismissNoticeDocument, MyNoticesDocument } from '../operations';

interface Notice {
  id: string;
  kind: NoticeKind;
  label: string;
  reason: string;
  rating: ContentRating | null;
  targetKind: ReportTargetKind;
}

function useNoticeText(): (notice: Notice) => string {
  const { t } = useTranslation();
  return (notice) => {
    const values = {
      label: notice.label,
      reason: notice.reason,
      rating: notice.rating ? t(`ratings.levels.${notice.rating}.name`) : '',
    };
    if (notice.targetKind === 'REPLY') return t('notices.other', values);
    return notice.targetKind === 'IMAGE' ? t(`notices.image.${notice.kind}`, values) : t(`notices.character.${notice.kind}`, values);
  };
}

/**
 * Moderators' decisions on the member's content that they have not dismissed yet, one dismissible
 * notice each, at the top of every member screen. Read once per session; gone once dismissed.
 */
export function MemberNotices() {
  const { t } = useTranslation();
  const client = useApolloClient();
  const text = useNoticeText();
  const { data } = useQuery(MyNoticesDocument, { fetchPolicy: 'cache-first', errorPolicy: 'all' });
  // Dismissed here: gone at once, whatever the server's answer (it is asked again on the next load).
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const notices = (data?.myNotices ?? []).filter((notice) => !dismissed.has(notice.id));
  if (notices.length === 0) return null;

  const dismiss = (id: string) => {
    setDismissed((current) => new Set(current).add(id));
    client.mutate({ mutation: DismissNoticeDocument, variables: { id } }).then(
      () => {
        // Lists drop references to an evicted entry when they are read.
        client.cache.evict({ id: client.cache.identify({ __typename: 'MemberNotice', id }) });
        client.cache.gc();
      },
      (error: unknown) => {
        // The notice shows again on the next visit; a lost session is handled by the client.
        if (!isUnauthenticatedError(error)) console.warn('The notice could not be dismissed', error);
      },
    );
  };

  return (
    <Stack as="section" aria-label={t('notices.label')} gap="3" mb="6" data-testid="member-notices">
      {notices.map((notice) => (
        <Alert.Root
          key={notice.id}
          status={notice.kind === 'CONTENT_RESTORED' ? 'success' : 'warning'}
          alignItems="flex-start"
          data-testid="member-notice"
          data-kind={notice.kind}
        >
          <Alert.Indicator />
          <Alert.Description flex="1" minW="0" wordBreak="break-word">
            {text(notice)}
          </Alert.Description>
          <CloseButton size="xs" mt="-1" me="-1" aria-label={t('notices.dismiss')} onClick={() => dismiss(notice.id)} />
        </Alert.Root>
      ))}
    </Stack>
  );
}
