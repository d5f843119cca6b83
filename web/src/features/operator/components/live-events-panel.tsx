import { Badge, Box, Button, Center, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorCode, getFieldErrors } from '../../../lib/graphql-errors';
import { DEFAULT_SUBJECT, EVENT_LIMIT } from '../operator';
import { EventFilterForm, type FilterErrors } from './event-filter-form';
import { EventRow } from './event-row';
import { useOperatorEvents, type AppliedFilter, type StreamStatus } from '../hooks/use-operator-events';

/** Which filter field a refusal is about: the server names the field, the wording is ours. */
function refusedField(status: StreamStatus): keyof FilterErrors | null {
  if (status.state !== 'failed' || getErrorCode(status.error) !== 'VALIDATION_FAILED') return null;
  const fields = getFieldErrors(status.error);
  return 'memberId' in fields && !('subject' in fields) ? 'memberId' : 'subject';
}

/** Live or not, and the way back when not (a refused filter is said at its field instead). */
function StreamState({ status, onReconnect }: { status: StreamStatus; onReconnect: () => void }) {
  const { t } = useTranslation();
  if (status.state === 'live') {
    return (
      <Badge colorPalette="green" variant="subtle" data-testid="operator-stream-status" data-state="live">
        <Box as="span" w="2" h="2" rounded="full" bg="green.500" aria-hidden="true" />
        {t('operator.events.live')}
      </Badge>
    );
  }
  const code = status.state === 'failed' ? getErrorCode(status.error) : undefined;
  if (code === 'VALIDATION_FAILED') return null;
  const message =
    code === 'FORBIDDEN' ? t('operator.forbidden') : status.state === 'ended' ? t('operator.events.ended') : t('operator.events.failed');
  return (
    <HStack gap="3" wrap="wrap" role="alert" data-testid="operator-stream-status" data-state={status.state}>
      <Badge colorPalette="red" variant="subtle">
        {t('operator.events.disconnected')}
      </Badge>
      <Text fontSize="sm">{message}</Text>
      {code !== 'FORBIDDEN' && (
        <Button size="xs" variant="outline" onClick={onReconnect}>
          {t('operator.events.reconnect')}
        </Button>
      )}
    </HStack>
  );
}

/** The event stream as it happens: filtered, newest first, at most EVENT_LIMIT kept, with Pause and Clear. */
export function LiveEventsPanel() {
  const { t, i18n } = useTranslation();
  const [filter, setFilter] = useState<AppliedFilter>({ subject: DEFAULT_SUBJECT, memberId: null });
  const { feed, status, control } = useOperatorEvents(filter);
  const timeFormat = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'medium' });
  const formatTime = (iso: string) => timeFormat.format(new Date(iso));
  const refused = refusedField(status);
  const filterErrors: FilterErrors =
    refused === 'memberId'
      ? { memberId: t('operator.events.filter.memberIdInvalid') }
      : refused === 'subject'
        ? { subject: t('operator.events.filter.subjectInvalid') }
        : {};
  // A new filter starts a new list: the events shown all match what the fields say.
  const apply = (next: AppliedFilter) => {
    control({ type: 'clear' });
    setFilter(next);
  };

  return (
    <Stack gap="4" as="section" aria-labelledby="operator-events-heading">
      <Flex gap="3" align="center" justify="space-between" wrap="wrap">
        <Heading as="h2" size="lg" id="operator-events-heading">
          {t('operator.events.heading')}
        </Heading>
        <StreamState status={status} onReconnect={() => setFilter({ ...filter })} />
      </Flex>
      <EventFilterForm initial={filter} errors={filterErrors} onApply={apply} />
      <Flex gap="3" align="center" justify="space-between" wrap="wrap" borderTopWidth="1px" borderColor="border.muted" pt="4">
        <Text fontSize="sm" data-testid="operator-events-count">
          {t('operator.events.shown', { count: feed.events.length })}
        </Text>
        <HStack gap="2">
          <Button size="sm" variant="outline" onClick={() => control({ type: feed.paused ? 'resume' : 'pause' })}>
            {feed.paused ? t('operator.events.resume') : t('operator.events.pause')}
          </Button>
          <Button size="sm" variant="outline" onClick={() => control({ type: 'clear' })}>
            {t('operator.events.clear')}
          </Button>
        </HStack>
      </Flex>
      <Box role="status">
        {feed.paused && (
          <Text fontSize="sm" fontWeight="medium" data-testid="operator-events-waiting">
            {t('operator.events.waiting', { count: feed.held.length })}
          </Text>
        )}
        {feed.dropped > 0 && (
          <Text fontSize="sm" color="fg.muted" data-testid="operator-events-dropped">
            {t('operator.events.dropped', { count: feed.dropped, limit: EVENT_LIMIT })}
          </Text>
        )}
      </Box>
      {feed.events.length === 0 ? (
        <Center borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" py="10" px="6" data-testid="operator-events-empty">
          <Text color="fg.muted">{t('operator.events.empty')}</Text>
        </Center>
      ) : (
        <Box as="ul" listStyleType="none" m="0" p="0" aria-label={t('operator.events.listLabel')} data-testid="operator-events">
          {feed.events.map((event) => (
            <Box
              as="li"
              key={event.id}
              borderBottomWidth="1px"
              borderColor="border.muted"
              data-testid="operator-event"
              data-type={event.type}
            >
              <EventRow event={event} formatTime={formatTime} />
            </Box>
          ))}
        </Box>
      )}
    </Stack>
  );
}
