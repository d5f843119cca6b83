import { Alert, Box, Card, Flex, Heading, HStack, Progress, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import type { MyPlanQuery } from '../../../gql/graphql';
import { formatRenewalDate, isUsedUp, usagePercent } from '../plans';
import { CoinsIcon } from '../../../components/icons/icons';

type PlanStatus = MyPlanQuery['myPlan'];

function QuotaBar({ quota }: { quota: PlanStatus['quotas'][number] }) {
  const { t } = useTranslation();
  return (
    <Progress.Root
      value={usagePercent(quota.used, quota.limit)}
      size="sm"
      colorPalette={isUsedUp(quota.used, quota.limit) ? 'red' : 'purple'}
      data-testid={`plan-usage-${quota.kind}`}
    >
      <HStack justify="space-between" mb="1.5">
        <Progress.Label fontSize="sm">{t(`dashboard.quota.${quota.kind}`)}</Progress.Label>
        <Text fontSize="sm" color="fg.muted" data-testid="plan-usage-value">
          {t('plans.usage.used', { used: quota.used, limit: quota.limit })}
        </Text>
      </HStack>
      <Progress.Track>
        <Progress.Range />
      </Progress.Track>
    </Progress.Root>
  );
}

function Figure({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <Stack gap="0">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="xl" fontWeight="semibold" data-testid={testId}>
        {children}
      </Text>
    </Stack>
  );
}

/** This month: each free allowance used against its limit, the token balance, the monthly allowance and the renewal day. */
export function PlanUsage({ plan, failed }: { plan: PlanStatus | undefined; failed: boolean }) {
  const { t, i18n } = useTranslation();
  if (!plan) {
    return failed ? (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{t('plans.usage.unavailable')}</Alert.Title>
      </Alert.Root>
    ) : null;
  }
  const renewsOn = formatRenewalDate(plan.renewsAt, i18n.language);
  return (
    <Card.Root as="section" aria-labelledby="plan-usage-heading" variant="outline" data-testid="plan-usage">
      <Card.Body gap="6">
        <Flex justify="space-between" align="baseline" wrap="wrap" gap="2">
          <Heading as="h2" id="plan-usage-heading" size="lg">
            {t('plans.usage.heading')}
          </Heading>
          {renewsOn && (
            <Text color="fg.muted" data-testid="plan-renews">
              {t('plans.usage.renews', { date: renewsOn })}
            </Text>
          )}
        </Flex>
        <Flex gap={{ base: '6', sm: '8' }} wrap="wrap" align="center">
          {/* Decoration only: on phones the two figures need the row to stay side by side. */}
          <Box p="3" rounded="full" bg="purple.900" color="purple.200" display={{ base: 'none', sm: 'block' }}>
            <CoinsIcon boxSize="6" />
          </Box>
          <Figure label={t('plans.usage.balance')} testId="plan-balance">
            {t('plans.usage.balanceValue', { tokens: plan.balance })}
          </Figure>
          <Figure label={t('plans.usage.allowance')} testId="plan-allowance">
            {t('plans.usage.allowanceValue', { tokens: plan.monthlyTokenAllowance })}
          </Figure>
        </Flex>
        <Text fontSize="sm" color="fg.muted" data-testid="plan-token-rule">
          <Trans i18nKey="plans.tokenRule" values={{ allowance: plan.monthlyTokenAllowance }} />
        </Text>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          {plan.quotas.map((quota) => (
            <QuotaBar key={quota.kind} quota={quota} />
          ))}
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}
