import { Box, Button, Code, Collapsible, Flex, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEventData, shortId } from '../operator';
import type { OperatorEvent } from '../hooks/use-operator-events';

/** One event: when, what and who, with its fields as JSON on demand. */
export function EventRow({ event, formatTime }: { event: OperatorEvent; formatTime: (iso: string) => string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Collapsible.Root open={open} onOpenChange={(details) => setOpen(details.open)} lazyMount unmountOnExit>
      <Flex gap="3" align="center" wrap="wrap" py="2">
        <Text asChild fontSize="sm" color="fg.muted" fontVariantNumeric="tabular-nums" minW="20">
          <time dateTime={event.occurredAt}>{formatTime(event.occurredAt)}</time>
        </Text>
        <Code fontSize="sm" wordBreak="break-all" data-testid="operator-event-type">
          {event.type}
        </Code>
        <Text fontSize="sm" color="fg.muted">
          {t('operator.events.version', { version: event.version })}
        </Text>
        <Text fontSize="sm" color="fg.muted" title={event.actorId ?? undefined}>
          {event.actorId ? t('operator.events.actor', { id: shortId(event.actorId) }) : t('operator.events.system')}
        </Text>
        <Collapsible.Trigger asChild>
          <Button size="xs" variant="ghost" ms="auto">
            {open ? t('operator.events.hideData') : t('operator.events.showData')}
          </Button>
        </Collapsible.Trigger>
      </Flex>
      <Collapsible.Content>
        <Box
          as="pre"
          fontFamily="mono"
          fontSize="xs"
          whiteSpace="pre-wrap"
          wordBreak="break-all"
          bg="bg.muted"
          p="3"
          mb="2"
          rounded="md"
          data-testid="operator-event-data"
        >
          {formatEventData(event.data)}
        </Box>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
