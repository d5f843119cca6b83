import { Box, SimpleGrid, Stack } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../auth/auth-context';
import { PageHeader } from '../../components/page-header';
import { FreePlanCard, ProPlanCard } from './components/plan-cards';
import { CurrentAccountNote, PlanReasonCallout, PremiumFeaturesNote } from './components/plan-notes';
import { MyPlanDocument } from './operations';
import { PlanUsage } from './components/plan-usage';
import type { QuotaKind } from '../../gql/graphql';
import { parsePlanReason } from './plans';

/** SPEC §2 Plans: Free and Pro, what is coming, the member's account and this month's use of the Free plan. */
export default function SubscribePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [searchParams] = useSearchParams();
  const reason = parsePlanReason(searchParams);
  // Fresh on every visit: the usage changes with each generation and chat reply.
  const { data, error } = useQuery(MyPlanDocument, { fetchPolicy: 'cache-and-network', errorPolicy: 'all' });
  const plan = data?.myPlan;
  const limits: Partial<Record<QuotaKind, number>> = Object.fromEntries((plan?.quotas ?? []).map((quota) => [quota.kind, quota.limit]));

  return (
    <Stack gap="8">
      <Box>
        <PageHeader title={t('plans.title')} description={t('plans.subtitle')} />
        {reason && <PlanReasonCallout reason={reason} renewsAt={plan?.renewsAt} failed={Boolean(error)} />}
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="6" mt={reason ? '6' : undefined}>
          <FreePlanCard limits={limits} />
          <ProPlanCard />
        </SimpleGrid>
      </Box>
      <PlanUsage plan={plan} failed={Boolean(error)} />
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="6">
        <PremiumFeaturesNote />
        <CurrentAccountNote email={user.email} />
      </SimpleGrid>
    </Stack>
  );
}
