import { Badge, Box, Button, Card, Flex, Heading, SimpleGrid, Text, VisuallyHidden } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { formatUsd } from '../format';
import { registerInterest } from '../interest-feedback';
import { nameContainingLabel } from '../label-in-name';
import { CheckList, LandingSection } from './landing-section';
import { CrownIcon } from '../../../components/icons/landing-icons';

/** Spec §1, §9: VIP groups, display only; Subscribe records interest and takes no payment. */
const PLANS = [
  { key: 'basic', interest: 'vip-basic', price: 9.99, perks: ['group', 'drops', 'early'], highlighted: false },
  { key: 'premium', interest: 'vip-premium', price: 19.99, perks: ['everything', 'daily', 'requests', 'stories'], highlighted: true },
] as const;

export function VipSection() {
  const { t, i18n } = useTranslation();
  return (
    <LandingSection id="pricing" title={t('landing.vip.heading')} intro={t('landing.vip.intro')}>
      <SimpleGrid as="ul" columns={{ base: 1, md: 2 }} gap="6" maxW="4xl" mx="auto" my="0" listStyleType="none" p="0">
        {PLANS.map((plan) => {
          const name = t(`landing.vip.plans.${plan.key}.name`);
          const price = formatUsd(plan.price, i18n.language);
          return (
            <li key={plan.key}>
              <Card.Root
                h="full"
                variant="outline"
                borderWidth={plan.highlighted ? '2px' : '1px'}
                borderColor={plan.highlighted ? 'purple.500' : 'border.muted'}
                bg={plan.highlighted ? 'purple.950' : 'bg.subtle'}
                position="relative"
                data-testid={`vip-plan-${plan.interest}`}
              >
                <Card.Header gap="2">
                  <Flex align="center" justify="space-between" gap="2">
                    <Flex align="center" gap="2">
                      <CrownIcon boxSize="5" color={plan.highlighted ? 'yellow.300' : 'purple.300'} />
                      <Heading as="h3" size="xl">
                        {name}
                      </Heading>
                    </Flex>
                    {plan.highlighted ? (
                      <Badge colorPalette="purple" variant="solid" rounded="full" px="3">
                        {t('landing.vip.popular')}
                      </Badge>
                    ) : null}
                  </Flex>
                  <Text color="fg.muted">{t(`landing.vip.plans.${plan.key}.description`)}</Text>
                </Card.Header>
                <Card.Body gap="5">
                  <Text>
                    <Box as="span" fontSize="5xl" fontWeight="bold" letterSpacing="tight" aria-hidden="true">
                      {price}
                    </Box>
                    <Box as="span" color="fg.muted" fontSize="lg" aria-hidden="true">
                      {t('landing.vip.perMonth')}
                    </Box>
                    <VisuallyHidden>{t('landing.vip.pricePerMonth', { price })}</VisuallyHidden>
                  </Text>
                  <CheckList
                    color="green.300"
                    items={plan.perks.map((perk) =>
                      t(`landing.vip.plans.${plan.key}.perks.${perk}` as 'landing.vip.plans.basic.perks.group'),
                    )}
                  />
                </Card.Body>
                <Card.Footer>
                  <Button
                    w="full"
                    size="lg"
                    rounded="full"
                    colorPalette="purple"
                    variant={plan.highlighted ? 'solid' : 'outline'}
                    aria-label={nameContainingLabel(t('landing.vip.subscribe'), t('landing.vip.subscribeTo', { plan: name }), name)}
                    onClick={() => registerInterest('vip_subscribe', plan.interest)}
                  >
                    {t('landing.vip.subscribe')}
                  </Button>
                </Card.Footer>
              </Card.Root>
            </li>
          );
        })}
      </SimpleGrid>
      <Text textAlign="center" color="fg.muted" fontSize="sm" mt="6">
        {t('landing.vip.note')}
      </Text>
    </LandingSection>
  );
}
