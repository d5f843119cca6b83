import { Alert, Button, Card, Heading, HStack, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import { getSocialCommunityUrl, getSocialMicroblogUrl } from '../../../lib/app-config';
import { type PlanReason, formatLaunchMonth, formatRenewalDate } from '../plans';
import { SparkleIcon } from '../../../components/icons/plan-icons';

/** Why the member was sent here (an action failed for want of tokens or allowance) and what to do. */
export function PlanReasonCallout({ reason, renewsAt, failed }: { reason: PlanReason; renewsAt: string | undefined; failed: boolean }) {
  const { t, i18n } = useTranslation();
  const date = formatRenewalDate(renewsAt, i18n.language);
  // Without the plan (it could not be read) the toast's wording without a date still says when: next month.
  const text = date || !failed ? t(`plans.reason.${reason}.text`, { date: date ?? '…' }) : t(`outOfTokens.${reason}NoDate`);
  return (
    <Alert.Root status="warning" data-testid="plan-reason" role="status">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t(`plans.reason.${reason}.title`)}</Alert.Title>
        <Alert.Description>{text}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

function ExternalButton({ href, label }: { href: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Button asChild variant="outline" size="sm">
      <a href={href} target="_blank" rel="noopener noreferrer">
        {label}
        <VisuallyHidden>{t('common.opensInNewTab')}</VisuallyHidden>
      </a>
    </Button>
  );
}

/** SPEC §2: the Premium Features Coming Soon block, linking to the community chat server and the social account. */
export function PremiumFeaturesNote() {
  const { t, i18n } = useTranslation();
  return (
    <Card.Root as="section" aria-labelledby="premium-heading" variant="subtle" data-testid="premium-features">
      <Card.Body gap="3">
        <HStack gap="2">
          <SparkleIcon boxSize="5" color="purple.300" />
          <Heading as="h2" id="premium-heading" size="md">
            {t('plans.premium.heading')}
          </Heading>
        </HStack>
        <Text color="fg.muted">{t('plans.premium.text', { month: formatLaunchMonth(i18n.language) })}</Text>
        <HStack gap="3" wrap="wrap">
          <ExternalButton href={getSocialCommunityUrl()} label={t('plans.premium.community')} />
          <ExternalButton href={getSocialMicroblogUrl()} label={t('plans.premium.social')} />
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

/** SPEC §2: the Current Account note, with the signed-in e-mail and the Free plan message. */
export function CurrentAccountNote({ email }: { email: string }) {
  const { t } = useTranslation();
  return (
    <Card.Root as="section" aria-labelledby="account-heading" variant="outline" data-testid="current-account">
      <Card.Body gap="2">
        <Heading as="h2" id="account-heading" size="md">
          {t('plans.account.heading')}
        </Heading>
        <Stack gap="1">
          <Text>
            <Trans
              i18nKey="plans.account.signedInAs"
              values={{ email }}
              components={{ email: <Text as="span" fontWeight="semibold" data-testid="current-account-email" /> }}
            />
          </Text>
          <Text color="fg.muted">{t('plans.account.freeMessage')}</Text>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
