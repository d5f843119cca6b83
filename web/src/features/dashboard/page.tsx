import { Alert, Box, Button, Card, Flex, Heading, HStack, Progress, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import type { ComponentType } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '../../auth/auth-context';
import { ChatIcon, CoinsIcon, GalleryIcon, ImageIcon, UsersIcon } from '../../components/icons/icons';
import type { IconProps } from '@chakra-ui/react';
import { StoryIcon } from '../../components/icons/story-icons';
import type { QuotaKind } from '../../gql/graphql';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { getBrandName } from '../../lib/app-config';
import { isNewMember } from './greeting';
import { MyQuotasDocument } from './quotas';

/** Spec §9: a balance below 3 tokens is low. */
export const LOW_TOKEN_THRESHOLD = 3;

/** The tiles; texts under `dashboard.tiles.<key>`. */
const TILES: {
  key: 'chat' | 'stories' | 'generator' | 'characters' | 'gallery';
  href: string;
  icon: ComponentType<IconProps>;
}[] = [
  { key: 'chat', href: '/chat', icon: ChatIcon },
  { key: 'stories', href: '/stories', icon: StoryIcon },
  { key: 'generator', href: '/generator', icon: ImageIcon },
  { key: 'characters', href: '/characters', icon: UsersIcon },
  { key: 'gallery', href: '/gallery', icon: GalleryIcon },
];

/** Quota names are `dashboard.quota.<QuotaKind>`. */
const QUOTA_KINDS: readonly QuotaKind[] = ['IMAGE', 'CHAT', 'CHARACTER', 'STORY'];

function TokenBalanceCard({ tokens }: { tokens: number }) {
  const { t } = useTranslation();
  const isLow = tokens < LOW_TOKEN_THRESHOLD;
  return (
    <Card.Root
      as="section"
      aria-labelledby="token-balance-heading"
      variant="outline"
      bgGradient="to-br"
      gradientFrom="purple.950"
      gradientTo="bg"
    >
      <Card.Body gap="4">
        <Flex align="center" gap="4" wrap="wrap">
          <Box p="3" rounded="full" bg="purple.900" color="purple.200">
            <CoinsIcon boxSize="6" />
          </Box>
          <Stack gap="0" flex="1" minW="40">
            <Heading as="h2" id="token-balance-heading" size="sm" color="fg.muted" fontWeight="medium">
              {t('dashboard.tokenBalance')}
            </Heading>
            <Text fontSize="3xl" fontWeight="bold" aria-live="polite">
              <Trans i18nKey="dashboard.balance" values={{ tokens }} components={{ balance: <span data-testid="token-balance" /> }} />
            </Text>
            <Text fontSize="sm" color="fg.muted">
              {t('dashboard.tokenRate')}
            </Text>
          </Stack>
          {!isLow && (
            <Button asChild variant="outline" size="sm">
              <RouterLink to="/subscribe">{t('dashboard.viewPlans')}</RouterLink>
            </Button>
          )}
        </Flex>
        {isLow && (
          <Alert.Root status="warning" data-testid="low-tokens-warning">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('dashboard.lowTokens')}</Alert.Title>
              <Alert.Description>{t('dashboard.lowTokensText')}</Alert.Description>
            </Alert.Content>
            <Button asChild size="sm" colorPalette="purple" alignSelf="center">
              <RouterLink to="/subscribe">{t('dashboard.buyTokens')}</RouterLink>
            </Button>
          </Alert.Root>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function FreePlanUsage() {
  const { t } = useTranslation();
  const { data } = useQuery(MyQuotasDocument, { errorPolicy: 'all' });
  const quotas = data?.myQuotas ?? [];
  if (quotas.length === 0) return null;
  return (
    <Box as="section" aria-labelledby="quota-heading" data-testid="quota-usage">
      <Heading as="h2" id="quota-heading" size="sm" color="fg.muted" fontWeight="medium" mb="3">
        {t('dashboard.quota.heading')}
      </Heading>
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
        {quotas.map((quota) => (
          <Progress.Root
            key={quota.kind}
            value={Math.min(quota.used, quota.limit)}
            max={Math.max(quota.limit, 1)}
            size="sm"
            colorPalette={quota.used >= quota.limit ? 'red' : 'purple'}
          >
            <HStack justify="space-between" mb="1.5">
              <Progress.Label fontSize="sm">
                {QUOTA_KINDS.includes(quota.kind) ? t(`dashboard.quota.${quota.kind}`) : quota.kind}
              </Progress.Label>
              <Text fontSize="sm" color="fg.muted">
                {t('dashboard.quota.usage', { used: quota.used, limit: quota.limit })}
              </Text>
            </HStack>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        ))}
      </SimpleGrid>
    </Box>
  );
}

export default function DashboardPage() {
  const user = useCurrentUser();
  const { t } = useTranslation();
  useDocumentTitle(t('dashboard.documentTitle'));
  const name = user.firstName?.trim() || t('dashboard.defaultName');

  return (
    <Stack gap="8">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="tight">
          {isNewMember(user.createdAt) ? t('dashboard.greetingNew', { name, brand: getBrandName() }) : t('dashboard.greeting', { name })}
        </Heading>
        <Text color="fg.muted">{t('dashboard.subtitle')}</Text>
      </Stack>

      <TokenBalanceCard tokens={user.tokens ?? 0} />

      <Box as="section" aria-labelledby="create-heading">
        <Heading as="h2" id="create-heading" size="lg" mb="4">
          {t('dashboard.startCreating')}
        </Heading>
        <SimpleGrid as="ul" columns={{ base: 1, sm: 2, lg: 3, xl: 5 }} gap="4" listStyleType="none" m="0" p="0">
          {TILES.map(({ key, href, icon: TileIcon }) => (
            <li key={href}>
              <Card.Root
                asChild
                variant="outline"
                h="full"
                transition="border-color 0.15s, transform 0.15s"
                _hover={{
                  borderColor: 'purple.500',
                  transform: 'translateY(-2px)',
                }}
                _focusVisible={{
                  outline: '2px solid',
                  outlineColor: 'purple.400',
                  outlineOffset: '2px',
                }}
              >
                <RouterLink to={href}>
                  <Card.Body gap="3">
                    <TileIcon boxSize="6" color="purple.300" />
                    <Heading as="h3" size="md">
                      {t(`dashboard.tiles.${key}.title`)}
                    </Heading>
                    <Text color="fg.muted" fontSize="sm">
                      {t(`dashboard.tiles.${key}.description`)}
                    </Text>
                  </Card.Body>
                </RouterLink>
              </Card.Root>
            </li>
          ))}
        </SimpleGrid>
      </Box>

      <FreePlanUsage />
    </Stack>
  );
}
