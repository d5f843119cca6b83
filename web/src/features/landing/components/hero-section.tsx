import { Badge, Box, Button, Container, Flex, Heading, HStack, Link, SimpleGrid, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { trackEvent } from '../../../lib/analytics';
import { getBrandName, getLaunchDate, getMainSiteUrl, getSocialCommunityUrl } from '../../../lib/app-config';
import { formatLaunchDate } from '../format';
import { ANCHOR_OFFSET } from './landing-section';
import { ArrowRightIcon, ChatBubbleIcon, ExternalLinkIcon, PeopleIcon, ShieldIcon } from '../../../components/icons/landing-icons';

const GLOW =
  'radial-gradient(ellipse 60% 50% at 50% 0%, rgba(147, 51, 234, 0.35), transparent 70%), radial-gradient(ellipse 40% 40% at 85% 30%, rgba(219, 39, 119, 0.18), transparent 70%), radial-gradient(ellipse 40% 40% at 10% 40%, rgba(79, 70, 229, 0.18), transparent 70%)';

const STATS = [
  { value: 'landing.hero.usersStat', label: 'landing.hero.usersStatLabel' },
  { value: 'landing.hero.featuresStat', label: 'landing.hero.featuresStatLabel' },
  { value: 'landing.hero.languagesStat', label: 'landing.hero.languagesStatLabel' },
] as const;

/** Hero (spec §1, §2): headline, the beta claim, the community invitation and the main-site button. */
export function HeroSection() {
  const { t, i18n } = useTranslation();
  const brand = getBrandName();
  const [launchDate] = useState(getLaunchDate);
  // Read once: the badge does not need to flip live (the countdown section does).
  const [isLaunched] = useState(() => launchDate.getTime() <= Date.now());

  return (
    <Box
      as="section"
      id="about"
      aria-labelledby="hero-heading"
      scrollMarginTop={ANCHOR_OFFSET}
      position="relative"
      overflow="hidden"
      px={{ base: '4', md: '6' }}
      pt={{ base: '14', md: '24' }}
      pb={{ base: '16', md: '24' }}
      backgroundImage={GLOW}
    >
      <Container maxW="5xl" px="0">
        <Stack gap={{ base: '6', md: '8' }} align="center" textAlign="center">
          <Badge colorPalette="purple" variant="surface" size="lg" rounded="full" px="4" py="1">
            {isLaunched ? t('landing.hero.badgeLive') : t('landing.hero.badge', { date: formatLaunchDate(launchDate, i18n.language) })}
          </Badge>
          <Heading
            as="h1"
            id="hero-heading"
            size={{ base: '4xl', sm: '5xl', md: '7xl' }}
            letterSpacing="tight"
            lineHeight="1.05"
            maxW="4xl"
          >
            {t('landing.hero.title')}
          </Heading>
          <Text fontSize={{ base: 'lg', md: 'xl' }} color="fg.muted" maxW="2xl">
            {t('landing.hero.subtitle', { brand })}
          </Text>
          <Flex gap="3" direction={{ base: 'column', sm: 'row' }} w={{ base: 'full', sm: 'auto' }}>
            <Button asChild colorPalette="purple" size="xl" rounded="full" px="8">
              <RouterLink to="/signup">
                {t('landing.hero.getStarted')}
                <ArrowRightIcon />
              </RouterLink>
            </Button>
            <Button asChild variant="outline" size="xl" rounded="full" px="8">
              <a href={getMainSiteUrl()} target="_blank" rel="noopener noreferrer" data-testid="hero-main-site">
                {t('landing.hero.visitMainSite')}
                <ExternalLinkIcon />
                <VisuallyHidden>{t('common.opensInNewTab')}</VisuallyHidden>
              </a>
            </Button>
          </Flex>

          <Flex
            direction={{ base: 'column', md: 'row' }}
            align="center"
            gap={{ base: '4', md: '6' }}
            mt="4"
            p={{ base: '5', md: '6' }}
            rounded="2xl"
            borderWidth="1px"
            borderColor="purple.800"
            bg="bg/70"
            backdropFilter="blur(8px)"
            maxW="3xl"
            w="full"
            textAlign={{ base: 'center', md: 'start' }}
          >
            <Box p="3" rounded="full" bg="purple.900" color="purple.200" flexShrink={0}>
              <PeopleIcon boxSize="6" />
            </Box>
            <Stack gap="1" flex="1">
              <Text fontWeight="semibold" data-testid="hero-users-claim">
                {t('landing.hero.usersClaim')}
              </Text>
              <Text color="fg.muted" fontSize="sm">
                {t('landing.hero.communityInvite')}
              </Text>
            </Stack>
            <Button asChild colorPalette="purple" variant="subtle" flexShrink={0}>
              <Link
                href={getSocialCommunityUrl()}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => trackEvent('social', 'community')}
                _hover={{ textDecoration: 'none' }}
                data-testid="hero-community-link"
              >
                <ChatBubbleIcon />
                {t('landing.hero.joinCommunity')}
                <VisuallyHidden>{t('common.opensInNewTab')}</VisuallyHidden>
              </Link>
            </Button>
          </Flex>

          <SimpleGrid as="dl" columns={3} gap={{ base: '4', md: '12' }} mt="2" w="full" maxW="2xl">
            {STATS.map((stat) => (
              <Stack key={stat.value} gap="0" align="center">
                <Text as="dt" order={2} fontSize="sm" color="fg.muted">
                  {t(stat.label)}
                </Text>
                <Text as="dd" order={1} fontSize={{ base: '2xl', md: '3xl' }} fontWeight="bold" color="purple.200" m="0">
                  {t(stat.value)}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
          <HStack gap="2" color="fg.muted" fontSize="sm">
            <ShieldIcon boxSize="4" />
            <Text>{t('common.adultsOnly')}</Text>
          </HStack>
        </Stack>
      </Container>
    </Box>
  );
}
