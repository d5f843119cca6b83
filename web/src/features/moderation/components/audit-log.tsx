import { Badge, Box, Button, Center, Grid, Skeleton, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../moderation';
import { ModerationAuditLogDocument } from '../operations';

export const AUDIT_PAGE_SIZE = 50;

const RATINGS = ['safe', 'suggestive', 'explicit'] as const;
/** The actor label the command line records (identity's CLI_LABEL). */
const COMMAND_LINE = 'command line';

function isOneOf<T extends string>(values: readonly T[], value: string | null | undefined): value is T {
  return value != null && (values as readonly string[]).includes(value);
}

function Cell({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box minW="0">
      <Text as="dt" fontSize="xs" color="fg.muted" srOnly={{ base: false, lg: true }}>
        {label}
      </Text>
      <Box as="dd" m="0" fontSize="sm" wordBreak="break-word" data-testid={testId}>
        {children}
      </Box>
    </Box>
  );
}

const COLUMNS = { base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: '10rem 12rem 9rem 12rem minmax(0, 1fr) 8rem' };

/**
 * The append-only audit log, newest first: time, moderator, action, target, reason and detail.
 * A table's columns on wide screens, a card per entry on phones; "Load more" pages on.
 */
export function AuditLog() {
  const { t, i18n } = useTranslation();
  const { data, loading, error, fetchMore, refetch } = useQuery(ModerationAuditLogDocument, {
    variables: { first: AUDIT_PAGE_SIZE },
    fetchPolicy: 'cache-and-network',
    nextFetchPolicy: 'cache-first',
    errorPolicy: 'all',
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const log = data?.moderationAuditLog;

  if (!log) {
    if (loading) {
      return (
        <Stack gap="3" aria-hidden="true">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} h="16" rounded="md" />
          ))}
        </Stack>
      );
    }
    return (
      <Center py="10">
        <Stack align="center" gap="3">
          <Text>{t('moderation.audit.loadFailed')}</Text>
          {error && (
            <Button size="sm" variant="outline" onClick={() => void refetch()}>
              {t('moderation.queue.retry')}
            </Button>
          )}
        </Stack>
      </Center>
    );
  }
  if (log.nodes.length === 0) {
    return (
      <Center borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" py="10" px="6">
        <Text>{t('moderation.audit.empty')}</Text>
      </Center>
    );
  }

  const loadMore = async () => {
    if (!log.endCursor || loadingMore) return;
    setLoadingMore(true);
    try {
      await fetchMore({ variables: { after: log.endCursor } });
    } catch {
      // The button stays for another try.
    } finally {
      setLoadingMore(false);
    }
  };

  const detail = (value: string | null) => {
    if (!value) return '—';
    if (isOneOf(RATINGS, value)) return t(`ratings.levels.${value.toUpperCase() as 'SAFE'}.name`);
    return value;
  };

  return (
    <Stack gap="4">
      <Grid
        templateColumns={COLUMNS}
        gap="4"
        px="4"
        hideBelow="lg"
        fontSize="xs"
        fontWeight="semibold"
        textTransform="uppercase"
        letterSpacing="wider"
        color="fg.muted"
        aria-hidden="true"
      >
        <span>{t('moderation.audit.fields.time')}</span>
        <span>{t('moderation.audit.fields.moderator')}</span>
        <span>{t('moderation.audit.fields.action')}</span>
        <span>{t('moderation.audit.fields.target')}</span>
        <span>{t('moderation.audit.fields.reason')}</span>
        <span>{t('moderation.audit.fields.detail')}</span>
      </Grid>
      <Stack as="ol" gap="2" listStyleType="none" m="0" p="0" aria-label={t('moderation.tabs.audit')} data-testid="audit-log">
        {log.nodes.map((entry) => (
          <Box
            as="li"
            key={entry.id}
            borderWidth="1px"
            borderColor="border.muted"
            rounded="md"
            bg="bg.subtle"
            p="4"
            data-testid="audit-entry"
          >
            <Grid as="dl" templateColumns={COLUMNS} gap={{ base: '2', lg: '4' }} m="0">
              <Cell label={t('moderation.audit.fields.time')}>
                <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt, i18n.language)}</time>
              </Cell>
              <Cell label={t('moderation.audit.fields.moderator')} testId="audit-moderator">
                {entry.actorLabel === COMMAND_LINE ? t('moderation.audit.commandLine') : entry.actorLabel}
              </Cell>
              <Cell label={t('moderation.audit.fields.action')} testId="audit-action">
                <Badge variant="subtle" colorPalette={entry.action === 'REMOVE' || entry.action === 'SUSPEND' ? 'red' : 'purple'}>
                  {t(`moderation.audit.actions.${entry.action}`)}
                </Badge>
              </Cell>
              <Cell label={t('moderation.audit.fields.target')} testId="audit-target">
                {t(`moderation.audit.targetKinds.${entry.targetKind}`)}
                <Text as="span" display="block" fontFamily="mono" fontSize="xs" color="fg.muted" wordBreak="break-all">
                  {entry.targetId}
                </Text>
              </Cell>
              <Cell label={t('moderation.audit.fields.reason')} testId="audit-reason">
                {entry.reason}
              </Cell>
              <Cell label={t('moderation.audit.fields.detail')}>{detail(entry.detail)}</Cell>
            </Grid>
          </Box>
        ))}
      </Stack>
      {log.hasNextPage && (
        <Center>
          {loadingMore ? (
            <Spinner color="purple.300" aria-label={t('common.loading')} />
          ) : (
            <Button variant="outline" size="sm" onClick={() => void loadMore()}>
              {t('moderation.audit.loadMore')}
            </Button>
          )}
        </Center>
      )}
    </Stack>
  );
}
