import { Box, Button, Container, Flex, Grid, Heading, HStack, Link, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import type { IconProps } from '@chakra-ui/react';
import { Suspense, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet } from 'react-router';
import { i18n } from '../i18n/i18n';
import { trackEvent } from '../lib/analytics';
import { getBrandName, getSocialCommunityUrl, getSocialMicroblogUrl, getSupportEmail, isApiDocsEnabled } from '../lib/app-config';
import { supportMailto, watchMailClientLaunch } from '../lib/support-contact';
import { BrandLink } from './brand-link';
import { PageSpinner } from './full-screen-spinner';
import { LanguagePicker } from './language-picker';
import { AtSignIcon, ChatBubbleIcon, ExternalLinkIcon, MailIcon, PeopleIcon, ShieldIcon } from './icons/landing-icons';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

/** Spec §2, §9: the copyright line names 2025. */
export const COPYRIGHT_YEAR = 2025;

/** Support link click: analytics, then the copy-and-alert fallback if no mail client opens (spec §2). */
function onSupportClick(address: string) {
  trackEvent('support', 'email');
  void watchMailClientLaunch(address, {
    copied: (email) => i18n.t('support.copied', { email }),
    manual: (email) => i18n.t('support.manual', { email }),
  });
}

function SocialTile({
  href,
  label,
  icon: TileIcon,
  onClick,
  testId,
}: {
  href: string;
  label: string;
  icon: ComponentType<IconProps>;
  onClick: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Link
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={onClick}
      display="flex"
      alignItems="center"
      gap="3"
      px="3"
      py="2.5"
      rounded="lg"
      borderWidth="1px"
      borderColor="border.muted"
      color="fg"
      _hover={{ borderColor: 'purple.500', textDecoration: 'none', bg: 'bg.muted' }}
      data-testid={testId}
    >
      <TileIcon boxSize="5" color="purple.300" />
      <Text as="span" flex="1">
        {label}
      </Text>
      <ExternalLinkIcon boxSize="3.5" color="fg.muted" />
      <VisuallyHidden>{t('common.opensInNewTab')}</VisuallyHidden>
    </Link>
  );
}

function FooterHeading({ children }: { children: string }) {
  return (
    <Heading as="h2" fontSize="sm" fontWeight="semibold" textTransform="uppercase" letterSpacing="wider" color="fg.muted" mb="3">
      {children}
    </Heading>
  );
}

function LegalLinks() {
  const { t } = useTranslation();
  return (
    <Stack as="ul" gap="2" listStyleType="none" m="0" p="0">
      <li>
        <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
          <RouterLink to="/tos">{t('footer.terms')}</RouterLink>
        </Link>
      </li>
      <li>
        <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
          <RouterLink to="/privacy">{t('footer.privacy')}</RouterLink>
        </Link>
      </li>
      <li>
        <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
          <RouterLink to="/takedown">{t('footer.takedown')}</RouterLink>
        </Link>
      </li>
      {isApiDocsEnabled() && (
        <li>
          <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
            <RouterLink to="/developers">{t('developers.link')}</RouterLink>
          </Link>
        </li>
      )}
    </Stack>
  );
}

/**
 * Site footer (spec §2): social links, the forum tile (Coming Soon), support e-mail, legal links, the
 * 18+ notice and the copyright line. `compact` is the slim version under sign-in, sign-up and legal.
 */
export function PublicFooter({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const brand = getBrandName();
  const supportEmail = getSupportEmail();

  const bottomLine = (
    <Flex
      direction={{ base: 'column', md: 'row' }}
      gap="3"
      justify="space-between"
      align={{ base: 'flex-start', md: 'center' }}
      fontSize="sm"
      color="fg.muted"
    >
      <HStack gap="2" align="flex-start">
        <ShieldIcon boxSize="4" mt="0.5" flexShrink={0} />
        <Text data-testid="adult-notice">{t('footer.adultNotice')}</Text>
      </HStack>
      <Text flexShrink={0} data-testid="copyright">
        {t('footer.copyright', { year: COPYRIGHT_YEAR, brand })}
      </Text>
    </Flex>
  );

  if (compact) {
    return (
      <Box as="footer" borderTopWidth="1px" borderColor="border.muted" py="8" px={{ base: '4', md: '6' }}>
        <Stack maxW="7xl" mx="auto" gap="4">
          <Flex as="nav" aria-label={t('footer.legalHeading')} gap="5" wrap="wrap" fontSize="sm">
            <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
              <RouterLink to="/tos">{t('footer.terms')}</RouterLink>
            </Link>
            <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
              <RouterLink to="/privacy">{t('footer.privacy')}</RouterLink>
            </Link>
            <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
              <RouterLink to="/takedown">{t('footer.takedown')}</RouterLink>
            </Link>
            {isApiDocsEnabled() && (
              <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
                <RouterLink to="/developers">{t('developers.link')}</RouterLink>
              </Link>
            )}
            <Link href={supportMailto(supportEmail)} color="fg.muted" _hover={{ color: 'fg' }} onClick={() => onSupportClick(supportEmail)}>
              {supportEmail}
            </Link>
          </Flex>
          {bottomLine}
        </Stack>
      </Box>
    );
  }

  return (
    <Box
      as="footer"
      borderTopWidth="1px"
      borderColor="border.muted"
      bg="bg.subtle"
      pt={{ base: '12', md: '16' }}
      pb="8"
      px={{ base: '4', md: '6' }}
    >
      <Container maxW="6xl" px="0">
        <Grid templateColumns={{ base: '1fr', md: '1.3fr 1.2fr 1fr 0.8fr' }} gap={{ base: '10', md: '8' }} mb="10">
          <Stack gap="3">
            <Box>
              <BrandLink />
            </Box>
            <Text color="fg.muted" fontSize="sm" maxW="xs">
              {t('footer.tagline')}
            </Text>
          </Stack>

          <Box>
            <FooterHeading>{t('footer.communityHeading')}</FooterHeading>
            <Stack as="ul" gap="2" listStyleType="none" m="0" p="0">
              <li>
                <SocialTile
                  href={getSocialMicroblogUrl()}
                  label={t('footer.microblog')}
                  icon={AtSignIcon}
                  onClick={() => trackEvent('social', 'microblog')}
                  testId="social-microblog"
                />
              </li>
              <li>
                <SocialTile
                  href={getSocialCommunityUrl()}
                  label={t('footer.community')}
                  icon={ChatBubbleIcon}
                  onClick={() => trackEvent('social', 'community')}
                  testId="social-community"
                />
              </li>
              <li>
                {/* Not a link yet: the forum opens later (spec §2: a disabled tile marked Coming Soon). */}
                <Flex
                  aria-disabled="true"
                  align="center"
                  gap="3"
                  px="3"
                  py="2.5"
                  rounded="lg"
                  borderWidth="1px"
                  borderStyle="dashed"
                  borderColor="border"
                  color="fg.muted"
                  cursor="not-allowed"
                  data-testid="forum-tile"
                >
                  <PeopleIcon boxSize="5" />
                  <Text as="span" flex="1">
                    {t('footer.forum')}
                  </Text>
                  <Text as="span" fontSize="xs" fontWeight="semibold" px="2" py="0.5" rounded="full" bg="bg.muted" color="fg">
                    {t('common.comingSoon')}
                  </Text>
                </Flex>
              </li>
            </Stack>
          </Box>

          <Box>
            <FooterHeading>{t('footer.supportHeading')}</FooterHeading>
            <Text color="fg.muted" fontSize="sm" mb="3">
              {t('footer.supportText')}
            </Text>
            <Button asChild variant="outline" size="sm">
              <a href={supportMailto(supportEmail)} onClick={() => onSupportClick(supportEmail)} data-testid="support-email">
                <MailIcon />
                {supportEmail}
              </a>
            </Button>
          </Box>

          <Box as="nav" aria-labelledby="footer-legal-heading">
            <Heading
              as="h2"
              id="footer-legal-heading"
              fontSize="sm"
              fontWeight="semibold"
              textTransform="uppercase"
              letterSpacing="wider"
              color="fg.muted"
              mb="3"
            >
              {t('footer.legalHeading')}
            </Heading>
            <LegalLinks />
          </Box>
        </Grid>
        <Box borderTopWidth="1px" borderColor="border.muted" pt="6">
          {bottomLine}
        </Box>
      </Container>
    </Box>
  );
}

/** Top bar of the signed-out screens other than the landing page. */
function PublicHeader() {
  const { t } = useTranslation();
  return (
    <Box as="header" borderBottomWidth="1px" borderColor="border.muted">
      {/* Phones get tighter spacing and the language's code only; where a language's words still do not fit, the links wrap under the brand. */}
      <Flex
        maxW="7xl"
        mx="auto"
        px={{ base: '3', sm: '4', md: '6' }}
        py="2"
        minH="16"
        align="center"
        wrap="wrap"
        columnGap={{ base: '2', sm: '4' }}
        rowGap="1"
      >
        <BrandLink />
        <HStack as="nav" aria-label={t('nav.account')} gap={{ base: '0.5', sm: '2' }} ms="auto" wrap="wrap" justify="flex-end">
          <LanguagePicker showName="fromSm" px={{ base: '1', sm: '2' }} gap="1" />
          <Button asChild variant="ghost" size="sm" px={{ base: '2', sm: '3.5' }}>
            <RouterLink to="/signin">{t('nav.logIn')}</RouterLink>
          </Button>
          <Button asChild colorPalette="purple" size="sm" px={{ base: '2', sm: '3.5' }}>
            <RouterLink to="/signup">{t('nav.getStarted')}</RouterLink>
          </Button>
        </HStack>
      </Flex>
    </Box>
  );
}

/** Shell of the signed-out screens other than the landing page (sign-in, sign-up, legal, takedown requests). */
export function PublicLayout() {
  return (
    <Flex direction="column" minH="100dvh" bg="bg">
      <SkipLink />
      <PublicHeader />
      <Box as="main" id={MAIN_CONTENT_ID} tabIndex={-1} flex="1" px={{ base: '4', md: '6' }} py="10" _focus={{ outline: 'none' }}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </Box>
      <PublicFooter compact />
    </Flex>
  );
}
