import { Badge, Box, CloseButton, Dialog, Flex, Heading, HStack, IconButton, Portal, Skeleton, Stack, Text, Wrap } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessagePromptReportDocument } from '../operations';
import { contextParts, messagesLeftOut, type ContextSegment, type PromptReportValue } from '../prompt-report-model';
import { ContextIcon } from './chat-settings-icons';

const SEGMENT_COLORS: Record<ContextSegment, string> = {
  character: 'purple.400',
  summary: 'blue.400',
  lore: 'teal.400',
  messages: 'green.400',
  reply: 'orange.400',
  free: 'bg.emphasized',
};

function useFormats() {
  const { i18n } = useTranslation();
  return {
    number: (value: number) => new Intl.NumberFormat(i18n.language).format(value),
    percent: (share: number) => new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(share),
  };
}

/** The context as one stacked bar, with its legend as the text equivalent. */
function ContextBar({ report }: { report: PromptReportValue }) {
  const { t } = useTranslation();
  const format = useFormats();
  const parts = contextParts(report);
  const legendId = useId();
  return (
    <Stack gap="3">
      <Flex
        h="3"
        w="full"
        rounded="full"
        overflow="hidden"
        bg="bg.muted"
        role="img"
        aria-label={t('chatSettings.context.barLabel', { tokens: format.number(report.contextTokens) })}
        aria-describedby={legendId}
        data-testid="context-bar"
      >
        {parts.map((part) => (
          <Box key={part.segment} w={`${part.share * 100}%`} bg={SEGMENT_COLORS[part.segment]} />
        ))}
      </Flex>
      <Box as="ul" id={legendId} listStyleType="none" m="0" p="0" display="grid" gap="1.5" data-testid="context-legend">
        {parts.map((part) => (
          <HStack as="li" key={part.segment} gap="2" fontSize="sm" justify="space-between">
            <HStack gap="2" minW="0">
              <Box w="2.5" h="2.5" rounded="sm" flexShrink={0} bg={SEGMENT_COLORS[part.segment]} aria-hidden="true" />
              <Text truncate>{t(`chatSettings.context.segments.${part.segment}`)}</Text>
            </HStack>
            <Text color="fg.muted" flexShrink={0} fontVariantNumeric="tabular-nums">
              {t('chatSettings.context.tokensShare', { tokens: format.number(part.tokens), share: format.percent(part.share) })}
            </Text>
          </HStack>
        ))}
      </Box>
    </Stack>
  );
}

function LoreSection({ report }: { report: PromptReportValue }) {
  const { t } = useTranslation();
  const format = useFormats();
  if (report.lore.length === 0 && report.loreSkipped.length === 0) {
    return <Text fontSize="sm">{t('chatSettings.context.loreNone')}</Text>;
  }
  return (
    <Stack gap="3">
      {report.lore.length > 0 && (
        <Stack as="ul" listStyleType="none" m="0" p="0" gap="2" aria-label={t('chatSettings.context.loreUsed')} data-testid="context-lore">
          {report.lore.map((entry, index) => (
            <Stack as="li" key={`${entry.label}-${index}`} gap="1">
              <Flex gap="2" justify="space-between" fontSize="sm">
                <Text fontWeight="medium" minW="0" wordBreak="break-word">
                  {entry.label}
                </Text>
                <Text color="fg.muted" flexShrink={0}>
                  {t('chatSettings.context.tokens', { tokens: format.number(entry.tokens) })}
                </Text>
              </Flex>
              {entry.keys.length > 0 ? (
                <Wrap gap="1" aria-label={t('chatSettings.context.keysFound')}>
                  {entry.keys.map((key) => (
                    <Badge key={key} variant="subtle" colorPalette="teal" maxW="full">
                      <Text as="span" truncate>
                        {key}
                      </Text>
                    </Badge>
                  ))}
                </Wrap>
              ) : (
                <Text fontSize="xs" color="fg.muted">
                  {t('chatSettings.context.alwaysIn')}
                </Text>
              )}
            </Stack>
          ))}
        </Stack>
      )}
      {report.loreSkipped.length > 0 && (
        <Stack gap="1">
          <Text fontSize="sm" fontWeight="medium">
            {t('chatSettings.context.loreSkipped')}
          </Text>
          <Stack as="ul" listStyleType="none" m="0" p="0" gap="1" data-testid="context-lore-skipped">
            {report.loreSkipped.map((entry, index) => (
              <Text as="li" key={`${entry.label}-${index}`} fontSize="sm" color="fg.muted" wordBreak="break-word">
                {t('chatSettings.context.skippedEntry', { label: entry.label, reason: t(skippedReasonKey(entry.reason)) })}
              </Text>
            ))}
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}

const SKIP_REASONS = ['budget', 'disabled', 'probability'] as const;
function skippedReasonKey(reason: string) {
  const known = SKIP_REASONS.find((candidate) => candidate === reason);
  return known ? (`chatSettings.context.skipReasons.${known}` as const) : 'chatSettings.context.skipReasons.other';
}

/** A reply's prompt report, readable: the context bar, the messages sent, the summary and the lore. */
export function ContextReport({ report }: { report: PromptReportValue }) {
  const { t } = useTranslation();
  const format = useFormats();
  const leftOut = messagesLeftOut(report);
  const hasSummary = report.summaryTokens > 0;
  return (
    <Stack gap="5" data-testid="context-report">
      <ContextBar report={report} />
      <Stack gap="1">
        <Heading as="h3" size="sm">
          {t('chatSettings.context.messagesHeading')}
        </Heading>
        <Text fontSize="sm" data-testid="context-messages">
          {t('chatSettings.context.messagesSent', {
            count: report.messagesTotal,
            included: format.number(report.messagesIncluded),
            total: format.number(report.messagesTotal),
          })}
        </Text>
        {leftOut > 0 && (
          <Text fontSize="sm" color="fg.muted">
            {t(hasSummary ? 'chatSettings.context.olderSummarized' : 'chatSettings.context.olderLeftOut', {
              count: leftOut,
              number: format.number(leftOut),
            })}
          </Text>
        )}
      </Stack>
      <Stack gap="1">
        <Heading as="h3" size="sm">
          {t('chatSettings.context.summaryHeading')}
        </Heading>
        <Text fontSize="sm" data-testid="context-summary">
          {hasSummary
            ? t('chatSettings.context.summaryUsed', { tokens: format.number(report.summaryTokens) })
            : t('chatSettings.context.summaryNone')}
        </Text>
      </Stack>
      <Stack gap="2">
        <Heading as="h3" size="sm">
          {t('chatSettings.context.loreHeading')}
        </Heading>
        <LoreSection report={report} />
      </Stack>
      <Text fontSize="xs" color="fg.muted">
        {t('chatSettings.context.estimate')}
      </Text>
    </Stack>
  );
}

function ContextReportLoader({ messageId }: { messageId: string }) {
  const { t } = useTranslation();
  const { data, loading, error } = useQuery(MessagePromptReportDocument, { variables: { id: messageId }, errorPolicy: 'all' });
  const report = data?.message?.promptReport;
  if (report) return <ContextReport report={report} />;
  if (loading) {
    return (
      <Stack gap="3" aria-busy="true">
        <Skeleton h="3" />
        <Skeleton h="24" />
      </Stack>
    );
  }
  return (
    <Text fontSize="sm" color={error ? 'fg.error' : 'fg.muted'} role={error ? 'alert' : undefined}>
      {t(error ? 'chatSettings.context.loadFailed' : 'chatSettings.context.none')}
    </Text>
  );
}

/** The "Context" action of a generated reply: an icon button that opens what made it into the reply's prompt. */
export function ContextReportButton({ messageId }: { messageId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <IconButton
        aria-label={t('chatSettings.context.action')}
        title={t('chatSettings.context.action')}
        size="2xs"
        variant="ghost"
        onClick={() => setOpen(true)}
        data-testid="context-report-button"
      >
        <ContextIcon />
      </IconButton>
      <Dialog.Root
        open={open}
        onOpenChange={(details) => setOpen(details.open)}
        placement="center"
        scrollBehavior="inside"
        lazyMount
        unmountOnExit
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content mx="3" data-testid="context-report-dialog">
              <Dialog.Header>
                <Dialog.Title>{t('chatSettings.context.title')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body pb="6">
                <ContextReportLoader messageId={messageId} />
              </Dialog.Body>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('common.close')} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  );
}
