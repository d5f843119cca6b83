import { Badge, Box, Button, Card, Flex, Grid, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  CaseReason,
  ModerationAction,
  ModerationCaseFieldsFragment,
  ModerationTargetFieldsFragment,
  TakedownRequesterRole,
} from '../../../gql/graphql';
import { contentActionsFor, formatDateTime, formatTimeUntil, isTakedownReason, memberActionFor, timeUntil } from '../moderation';
import { ModerationStateBadge, RatingBadge } from './rating-parts';

const REQUESTER_ROLE_KEYS = {
  DEPICTED_PERSON: 'moderation.case.requesterRoles.depicted_person',
  AUTHORISED_REPRESENTATIVE: 'moderation.case.requesterRoles.authorised_representative',
  RIGHTS_HOLDER: 'moderation.case.requesterRoles.rights_holder',
} as const satisfies Record<TakedownRequesterRole, string>;

/** A report reason (MINOR) or takedown kind (INTIMATE_IMAGE), in words. */
function useReasonLabel(): (reason: CaseReason) => string {
  const { t } = useTranslation();
  return (reason) => (isTakedownReason(reason) ? t(`moderation.case.takedownKinds.${reason}`) : t(`report.reasons.${reason}.label`));
}

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box>
      <Text as="dt" fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="wider" color="fg.muted">
        {label}
      </Text>
      <Box as="dd" m="0" fontSize="sm" wordBreak="break-word" whiteSpace="pre-wrap" data-testid={testId}>
        {children}
      </Box>
    </Box>
  );
}

/** The reported item as it is now (or as it was, once deleted): picture, title, text, the message before a reply. */
function ItemInContext({ moderationCase }: { moderationCase: ModerationCaseFieldsFragment }) {
  const { t } = useTranslation();
  const item: ModerationTargetFieldsFragment = moderationCase.current ?? moderationCase.snapshot;
  const changed = moderationCase.current !== null && moderationCase.current.text !== moderationCase.snapshot.text;
  return (
    <Stack gap="3" minW="0" data-testid="case-item">
      {moderationCase.current === null && (
        <Text fontSize="sm" color="orange.300">
          {t('moderation.case.deleted')}
        </Text>
      )}
      {changed && (
        <Text fontSize="sm" color="fg.muted">
          {t('moderation.case.changed')}
        </Text>
      )}
      {item.imageUrl && (
        <Box bg="bg.muted" rounded="md" overflow="hidden" maxW="sm">
          <img
            src={item.imageUrl}
            alt={t('moderation.case.pictureAlt')}
            loading="lazy"
            style={{ display: 'block', width: '100%', maxHeight: '20rem', objectFit: 'contain' }}
            data-testid="case-picture"
          />
        </Box>
      )}
      {item.title && (
        <Text fontWeight="semibold" wordBreak="break-word" data-testid="case-item-title">
          {item.title}
        </Text>
      )}
      <Stack as="dl" gap="3" m="0">
        {item.context && (
          <Box borderStartWidth="3px" borderColor="purple.700" ps="3">
            <Field label={t('moderation.case.memberMessage')}>{item.context}</Field>
          </Box>
        )}
        <Field label={item.kind === 'REPLY' ? t('moderation.case.reply') : t('moderation.case.text')} testId="case-item-text">
          {item.text || t('moderation.case.noText')}
        </Field>
      </Stack>
      <HStack gap="2" wrap="wrap">
        <Badge variant="outline" data-testid="case-item-state">
          {t('moderation.case.state')}: {t(`moderation.case.states.${item.state}`)}
        </Badge>
        <ModerationStateBadge state={item.state} />
        <Badge variant="subtle" colorPalette={item.isPublic ? 'green' : 'gray'}>
          {item.isPublic ? t('moderation.case.public') : t('moderation.case.private')}
        </Badge>
        {item.rating && <RatingBadge rating={item.rating} />}
      </HStack>
    </Stack>
  );
}

/** The time left to act ("Due in 3 hours"), in red once overdue. */
function Deadline({ deadlineAt, now }: { deadlineAt: string; now: number }) {
  const { t, i18n } = useTranslation();
  const { overdue } = timeUntil(deadlineAt, now);
  const relative = formatTimeUntil(deadlineAt, now, i18n.language);
  return (
    <Text
      as="span"
      fontSize="sm"
      fontWeight="semibold"
      color={overdue ? 'red.400' : 'fg'}
      title={t('moderation.case.deadline', { date: formatDateTime(deadlineAt, i18n.language) })}
      data-testid="case-deadline"
      data-overdue={overdue ? 'true' : undefined}
    >
      <time dateTime={deadlineAt}>{overdue ? t('moderation.case.overdue', { relative }) : t('moderation.case.due', { relative })}</time>
    </Text>
  );
}

/**
 * One case of the queue: what it is (report or takedown, the reason), who filed it, the time left,
 * the item in context, and the actions, each asking for a reason first. The owner is offered
 * suspension or, once suspended, unsuspension.
 */
export function ModerationCaseCard({
  moderationCase,
  now,
  onAction,
}: {
  moderationCase: ModerationCaseFieldsFragment;
  now: number;
  onAction: (action: ModerationAction) => void;
}) {
  const { t, i18n } = useTranslation();
  const reasonLabel = useReasonLabel();
  const headingId = `case-${moderationCase.id}`;
  const requester = moderationCase.requester;
  const reporter = moderationCase.reporter;
  const contentActions = contentActionsFor(moderationCase.targetKind, moderationCase.current?.state ?? null);
  const memberAction = memberActionFor(moderationCase.ownerSuspended);
  const requesterRole = requester && t(REQUESTER_ROLE_KEYS[requester.role]);

  return (
    <Card.Root
      as="article"
      variant="outline"
      aria-labelledby={headingId}
      data-testid="moderation-case"
      data-case-id={moderationCase.id}
      data-target-id={moderationCase.targetId}
    >
      <Card.Header gap="2">
        <Flex gap="2" wrap="wrap" align="center">
          <Badge colorPalette={moderationCase.kind === 'TAKEDOWN' ? 'red' : 'purple'} variant="solid">
            {t(`moderation.case.kinds.${moderationCase.kind}`)}
          </Badge>
          <Badge variant="outline">{t(`moderation.case.targetKinds.${moderationCase.targetKind}`)}</Badge>
          {moderationCase.ownerSuspended && (
            <Badge colorPalette="red" variant="subtle" data-testid="case-owner-suspended">
              {t('moderation.case.ownerSuspended')}
            </Badge>
          )}
          <Box ms={{ base: '0', sm: 'auto' }} w={{ base: 'full', sm: 'auto' }}>
            <Deadline deadlineAt={moderationCase.deadlineAt} now={now} />
          </Box>
        </Flex>
        <Heading as="h2" size="md" id={headingId} wordBreak="break-word" data-testid="case-reason">
          {reasonLabel(moderationCase.reason)}
        </Heading>
      </Card.Header>
      <Card.Body>
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 3fr)' }} gap="6">
          <Stack gap="3" minW="0">
            {moderationCase.kind === 'REPORT' && !reporter && (
              <Text fontSize="sm" color="fg.muted">
                {t('moderation.case.reportedBy')}
              </Text>
            )}
            <Stack as="dl" gap="3" m="0">
              {moderationCase.kind === 'REPORT' && reporter && (
                <Field label={t('moderation.case.reporter')} testId="case-reporter">
                  {reporter.name ? `${reporter.name} · ${reporter.email}` : reporter.email}
                </Field>
              )}
              {moderationCase.kind === 'TAKEDOWN' && (
                <>
                  <Field label={t('moderation.case.reference')} testId="case-reference">
                    {moderationCase.reference}
                  </Field>
                  {requester && (
                    <Field label={t('moderation.case.requester')} testId="case-requester">
                      {requester.name} · {requester.email}
                      {requesterRole ? `\n${requesterRole}` : ''}
                    </Field>
                  )}
                  {requester && <Field label={t('moderation.case.signature')}>{requester.signature}</Field>}
                </>
              )}
              <Field label={t('moderation.case.details')} testId="case-details">
                {moderationCase.details || t('moderation.case.noDetails')}
              </Field>
            </Stack>
            <Text fontSize="xs" color="fg.muted">
              {t('moderation.case.filed', { date: formatDateTime(moderationCase.createdAt, i18n.language) })}
              {' · '}
              {t('moderation.case.deadline', { date: formatDateTime(moderationCase.deadlineAt, i18n.language) })}
              {moderationCase.resolveBy && (
                <>
                  {' · '}
                  {t('moderation.case.resolveBy', { date: formatDateTime(moderationCase.resolveBy, i18n.language) })}
                </>
              )}
            </Text>
          </Stack>
          <ItemInContext moderationCase={moderationCase} />
        </Grid>
      </Card.Body>
      <Card.Footer>
        <Flex role="group" aria-label={t('moderation.actions.label')} gap="2" wrap="wrap" w="full">
          {contentActions.map((action) => (
            <Button
              key={action}
              size="sm"
              variant={action === 'REMOVE' ? 'solid' : 'outline'}
              colorPalette={action === 'REMOVE' ? 'red' : action === 'DISMISS' ? 'gray' : 'purple'}
              onClick={() => onAction(action)}
            >
              {t(`moderation.actions.${action}`)}
            </Button>
          ))}
          <Flex gap="2" wrap="wrap" ms={{ base: '0', md: 'auto' }}>
            <Button
              size="sm"
              variant="ghost"
              colorPalette={memberAction === 'SUSPEND' ? 'red' : undefined}
              onClick={() => onAction(memberAction)}
            >
              {t(`moderation.actions.${memberAction}`)}
            </Button>
          </Flex>
        </Flex>
      </Card.Footer>
    </Card.Root>
  );
}
