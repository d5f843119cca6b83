import { Box, Button, Card, Center, Flex, Heading, HStack, Link, Skeleton, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { AlertIcon } from '../../components/icons/icons';
import { AuditLog } from './components/audit-log';
import { ModerationActionDialog, type PendingAction } from './components/moderation-action-dialog';
import { ModerationCaseCard } from './components/moderation-case-card';
import { ModerationQueueDocument } from './operations';
import { PageHeader } from '../../components/page-header';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useNow } from '../../hooks/use-now';
import { getErrorCode } from '../../lib/graphql-errors';

export const QUEUE_PAGE_SIZE = 20;

/** A moderator whose role was taken away since the page loaded (the server says FORBIDDEN). */
export function NotAllowed() {
  const { t } = useTranslation();
  useDocumentTitle(t('moderation.notAllowed.title'));
  return (
    <Center minH="50dvh" px="4">
      <Card.Root maxW="md" w="full" data-testid="moderation-not-allowed">
        <Card.Body gap="3">
          <HStack gap="3">
            <AlertIcon boxSize="7" color="red.400" />
            <Heading as="h1" size="xl">
              {t('moderation.notAllowed.title')}
            </Heading>
          </HStack>
          <Text color="fg.muted">{t('moderation.notAllowed.text')}</Text>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}

function SectionLinks({ current }: { current: 'queue' | 'audit' }) {
  const { t } = useTranslation();
  const links = [
    { key: 'queue', to: '/moderation', label: t('moderation.tabs.queue') },
    { key: 'audit', to: '/moderation/audit', label: t('moderation.tabs.audit') },
  ] as const;
  return (
    <HStack as="nav" aria-label={t('moderation.tabs.label')} gap="1" borderBottomWidth="1px" borderColor="border.muted" mb="6">
      {links.map((link) => {
        const active = link.key === current;
        return (
          <Link
            key={link.key}
            asChild
            px="3"
            py="2"
            mb="-1px"
            fontWeight="medium"
            borderBottomWidth="2px"
            borderColor={active ? 'purple.400' : 'transparent'}
            color={active ? 'fg' : 'fg.muted'}
            _hover={{ color: 'fg', textDecoration: 'none' }}
          >
            <RouterLink to={link.to} aria-current={active ? 'page' : undefined}>
              {link.label}
            </RouterLink>
          </Link>
        );
      })}
    </HStack>
  );
}

/** The open cases, soonest deadline first; each action asks for a reason, and the case then leaves the queue. */
function Queue() {
  const { t } = useTranslation();
  const now = useNow();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const { data, loading, error, fetchMore, refetch } = useQuery(ModerationQueueDocument, {
    variables: { first: QUEUE_PAGE_SIZE },
    // Fresh on entry (reports keep arriving), then from the cache until an action reads it again.
    fetchPolicy: 'cache-and-network',
    nextFetchPolicy: 'cache-first',
    errorPolicy: 'all',
  });
  const queue = data?.moderationQueue;

  if (!queue && getErrorCode(error) === 'FORBIDDEN') return <NotAllowed />;
  if (!queue) {
    return loading ? (
      <Stack gap="4" aria-hidden="true">
        {[0, 1].map((index) => (
          <Skeleton key={index} h="48" rounded="lg" />
        ))}
      </Stack>
    ) : (
      <Center py="10">
        <Stack align="center" gap="3">
          <Text>{t('moderation.queue.loadFailed')}</Text>
          <Button size="sm" variant="outline" onClick={() => void refetch()}>
            {t('moderation.queue.retry')}
          </Button>
        </Stack>
      </Center>
    );
  }

  const loadMore = async () => {
    if (!queue.endCursor || loadingMore) return;
    setLoadingMore(true);
    try {
      await fetchMore({ variables: { after: queue.endCursor } });
    } catch {
      // The button stays for another try.
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <Stack gap="5">
      <Flex gap="3" align="center" justify="space-between" wrap="wrap">
        <Text fontWeight="medium" data-testid="open-count" aria-live="polite">
          {t('moderation.queue.openCount', { count: queue.openCount })}
        </Text>
        <Button size="sm" variant="outline" onClick={() => void refetch()} loading={loading}>
          {t('moderation.queue.refresh')}
        </Button>
      </Flex>
      {queue.nodes.length === 0 ? (
        <Center borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" py="12" px="6" data-testid="queue-empty">
          <Text>{t('moderation.queue.empty')}</Text>
        </Center>
      ) : (
        <Stack as="ul" gap="4" listStyleType="none" m="0" p="0" data-testid="moderation-queue">
          {queue.nodes.map((moderationCase) => (
            <li key={moderationCase.id}>
              <ModerationCaseCard moderationCase={moderationCase} now={now} onAction={(action) => setPending({ action, moderationCase })} />
            </li>
          ))}
        </Stack>
      )}
      {queue.hasNextPage && (
        <Center>
          {loadingMore ? (
            <Spinner color="purple.300" aria-label={t('common.loading')} />
          ) : (
            <Button variant="outline" size="sm" onClick={() => void loadMore()}>
              {t('moderation.queue.loadMore')}
            </Button>
          )}
        </Center>
      )}
      <ModerationActionDialog pending={pending} onClose={() => setPending(null)} />
    </Stack>
  );
}

/**
 * Moderation (moderators and admins; member-routes.tsx shows others the not-found page): the open
 * queue at /moderation and the audit log at /moderation/audit.
 */
export default function ModerationPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const section = pathname.replace(/\/+$/, '').endsWith('/audit') ? 'audit' : 'queue';
  return (
    <Box>
      <PageHeader title={t('moderation.title')} description={t('moderation.description')} />
      <SectionLinks current={section} />
      {section === 'audit' ? <AuditLog /> : <Queue />}
    </Box>
  );
}
