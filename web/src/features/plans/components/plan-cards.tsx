import { Badge, Button, Card, Heading, HStack, List, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { QuotaKind } from '../../../gql/graphql';
import { PRO_FEATURE_KEYS, PRO_PLAN, formatLaunchMonth, formatMonthlyPrice } from '../plans';
import { CheckIcon } from '../../../components/icons/plan-icons';

const QUOTA_ORDER: readonly QuotaKind[] = ['IMAGE', 'CHAT', 'CHARACTER', 'STORY'];

/** SPEC §9's free allowances, shown until the member's own limits arrive. */
const FREE_PLAN_DEFAULTS: Record<QuotaKind, number> = { IMAGE: 3, CHAT: 10, CHARACTER: 2, STORY: 2 };

function FeatureList({ items, testId }: { items: string[]; testId: string }) {
  return (
    <List.Root gap="2" variant="plain" data-testid={testId}>
      {items.map((item) => (
        <List.Item key={item} alignItems="center">
          <List.Indicator asChild color="purple.300">
            <CheckIcon boxSize="4" />
          </List.Indicator>
          {item}
        </List.Item>
      ))}
    </List.Root>
  );
}

function Price({ amount }: { amount: number }) {
  const { t, i18n } = useTranslation();
  return (
    <Text>
      <Text as="span" fontSize="4xl" fontWeight="bold">
        {formatMonthlyPrice(amount, i18n.language)}
      </Text>
      <Text as="span" color="fg.muted">
        {t('plans.perMonth')}
      </Text>
    </Text>
  );
}

/** The Free plan, the member's current one, with its four monthly allowances. */
export function FreePlanCard({ limits }: { limits: Partial<Record<QuotaKind, number>> }) {
  const { t } = useTranslation();
  const allowances = QUOTA_ORDER.map((kind) => t(`plans.free.allowances.${kind}`, { count: limits[kind] ?? FREE_PLAN_DEFAULTS[kind] }));
  return (
    <Card.Root as="section" aria-labelledby="free-plan-heading" variant="outline" borderColor="purple.500" data-testid="free-plan">
      <Card.Header>
        <HStack justify="space-between">
          <Heading as="h2" id="free-plan-heading" size="xl">
            {t('plans.free.name')}
          </Heading>
          <Badge colorPalette="purple" variant="solid">
            {t('plans.currentPlan')}
          </Badge>
        </HStack>
        <Text color="fg.muted">{t('plans.free.description')}</Text>
      </Card.Header>
      <Card.Body gap="4">
        <Price amount={0} />
        <FeatureList items={[...allowances, t('plans.free.basicFeatures')]} testId="free-plan-features" />
      </Card.Body>
      <Card.Footer>
        <Button width="full" variant="outline" disabled>
          {t('plans.currentPlan')}
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}

/** Pro: announced for September 2025, not yet on sale (SPEC §4: Coming Soon, button disabled). */
export function ProPlanCard() {
  const { t, i18n } = useTranslation();
  return (
    <Card.Root
      as="section"
      aria-labelledby="pro-plan-heading"
      variant="outline"
      bgGradient="to-br"
      gradientFrom="purple.950"
      gradientTo="bg"
      data-testid="pro-plan"
    >
      <Card.Header>
        <HStack justify="space-between">
          <Heading as="h2" id="pro-plan-heading" size="xl">
            {t('plans.pro.name')}
          </Heading>
          <Badge colorPalette="orange" variant="subtle">
            {t('common.comingSoon')}
          </Badge>
        </HStack>
        <Text color="fg.muted">{t('plans.pro.description')}</Text>
      </Card.Header>
      <Card.Body gap="4">
        <Stack gap="1">
          <Price amount={PRO_PLAN.monthlyPriceUsd} />
          <Text fontSize="sm" color="purple.200" data-testid="pro-launch">
            {t('plans.pro.launch', { month: formatLaunchMonth(i18n.language) })}
          </Text>
        </Stack>
        <FeatureList items={PRO_FEATURE_KEYS.map((key) => t(`plans.pro.features.${key}`))} testId="pro-plan-features" />
      </Card.Body>
      <Card.Footer>
        <Button width="full" colorPalette="purple" disabled data-testid="pro-plan-button">
          {t('plans.pro.button')}
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
