import { Box, Button, Flex, HStack, IconButton, Link, Stack } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { BrandLink } from '../../../components/brand-link';
import { CloseIcon, MenuIcon } from '../../../components/icons/icons';
import { LanguagePicker } from '../../../components/language-picker';

const MOBILE_MENU_ID = 'landing-mobile-menu';

/** In-page anchors of the top navigation (spec §2: features, gallery, pricing, about). */
export const LANDING_ANCHORS = [
  { href: '#features', labelKey: 'landing.nav.features' },
  { href: '#gallery', labelKey: 'landing.nav.gallery' },
  { href: '#pricing', labelKey: 'landing.nav.pricing' },
  { href: '#about', labelKey: 'landing.nav.about' },
] as const;

function AnchorLinks({ direction, onNavigate }: { direction: 'row' | 'column'; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack as="ul" direction={direction} gap="1" listStyleType="none" m="0" p="0">
      {LANDING_ANCHORS.map((anchor) => (
        <li key={anchor.href}>
          <Link
            href={anchor.href}
            onClick={onNavigate}
            display="block"
            px="3"
            py="2"
            rounded="md"
            fontWeight="medium"
            color="fg.muted"
            _hover={{ color: 'fg', bg: 'bg.muted', textDecoration: 'none' }}
          >
            {t(anchor.labelKey)}
          </Link>
        </li>
      ))}
    </Stack>
  );
}

/** Landing top bar: brand, section anchors, language, Log in and Get started; a menu button on small screens. */
export function LandingNav() {
  const { t } = useTranslation();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isMenuOpen) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isMenuOpen]);

  const close = () => setMenuOpen(false);

  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg/85"
      backdropFilter="blur(12px)"
      borderBottomWidth="1px"
      borderColor="border.muted"
    >
      <Flex maxW="7xl" mx="auto" px={{ base: '4', md: '6' }} h="16" align="center" gap={{ base: '2', md: '6' }}>
        <BrandLink />
        <Box as="nav" aria-label={t('landing.nav.label')} hideBelow="md" flex="1" display="flex" justifyContent="center">
          <AnchorLinks direction="row" />
        </Box>
        <HStack gap={{ base: '1', md: '2' }} ms="auto">
          <LanguagePicker />
          <Button asChild variant="ghost" size="sm" hideBelow="md">
            <RouterLink to="/signin">{t('nav.logIn')}</RouterLink>
          </Button>
          <Button asChild colorPalette="purple" size="sm" hideBelow="md">
            <RouterLink to="/signup">{t('nav.getStarted')}</RouterLink>
          </Button>
          <IconButton
            ref={menuButton}
            hideFrom="md"
            variant="ghost"
            aria-label={isMenuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            aria-expanded={isMenuOpen}
            aria-controls={MOBILE_MENU_ID}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {isMenuOpen ? <CloseIcon /> : <MenuIcon />}
          </IconButton>
        </HStack>
      </Flex>
      {isMenuOpen && (
        <Box
          as="nav"
          id={MOBILE_MENU_ID}
          aria-label={t('landing.nav.label')}
          hideFrom="md"
          px="4"
          pt="3"
          pb="4"
          borderTopWidth="1px"
          borderColor="border.muted"
          data-testid="landing-mobile-menu"
        >
          <AnchorLinks direction="column" onNavigate={close} />
          <Stack gap="2" mt="3" pt="3" borderTopWidth="1px" borderColor="border.muted">
            <Button asChild variant="outline" onClick={close}>
              <RouterLink to="/signin">{t('nav.logIn')}</RouterLink>
            </Button>
            <Button asChild colorPalette="purple" onClick={close}>
              <RouterLink to="/signup">{t('nav.getStarted')}</RouterLink>
            </Button>
          </Stack>
        </Box>
      )}
    </Box>
  );
}
