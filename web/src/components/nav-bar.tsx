import { Badge, Box, Flex, HStack, IconButton, Link, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useCurrentUser } from '../auth/auth-context';
import { canModerate } from '../features/moderation/moderation';
import { isNavItemActive, navItemsFor } from '../lib/nav-items';
import { BrandLink } from './brand-link';
import { CloseIcon, MenuIcon } from './icons/icons';
import { LanguagePicker } from './language-picker';
import { UserMenu } from './user-menu';

const MOBILE_NAV_ID = 'mobile-nav';

function NavLinks({ pathname, direction }: { pathname: string; direction: 'row' | 'column' }) {
  const { t } = useTranslation();
  const { role } = useCurrentUser();
  return (
    <Stack as="ul" direction={direction} gap="1" listStyleType="none" m="0" p="0">
      {navItemsFor(role).map((item) => {
        const isActive = isNavItemActive(item.href, pathname);
        return (
          <li key={item.href}>
            <Link
              asChild
              display="block"
              px="3"
              py="2"
              rounded="md"
              fontWeight="medium"
              color={isActive ? 'purple.200' : 'fg.muted'}
              bg={isActive ? 'purple.900/60' : undefined}
              _hover={{ color: 'fg', bg: 'bg.muted', textDecoration: 'none' }}
            >
              <RouterLink to={item.href} aria-current={isActive ? 'page' : undefined}>
                {t(item.labelKey)}
              </RouterLink>
            </Link>
          </li>
        );
      })}
    </Stack>
  );
}

/** Signed-in navigation bar (spec §2). */
export function NavBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { role } = useCurrentUser();
  // Six links fit beside the account controls from lg; moderators have one more (Moderation) and keep the menu to xl.
  const desktopFrom = canModerate(role) ? 'xl' : 'lg';
  // The mobile menu belongs to the page it was opened on, so navigating closes it.
  const [openOnPath, setOpenOnPath] = useState<string | null>(null);
  const isMenuOpen = openOnPath === pathname;

  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg/85"
      backdropFilter="blur(10px)"
      borderBottomWidth="1px"
      borderColor="border.muted"
    >
      <Flex maxW="7xl" mx="auto" px={{ base: '4', md: '6' }} h="16" align="center" gap="6">
        <BrandLink />
        <Box as="nav" aria-label={t('nav.main')} hideBelow={desktopFrom} flex="1">
          <NavLinks pathname={pathname} direction="row" />
        </Box>
        <HStack gap="3" ms="auto">
          <Badge hideBelow={desktopFrom} colorPalette="green" variant="subtle" data-testid="online-badge">
            <Box as="span" w="2" h="2" rounded="full" bg="green.400" aria-hidden="true" />
            {t('nav.online')}
          </Badge>
          <LanguagePicker showName={false} />
          <UserMenu />
          <IconButton
            hideFrom={desktopFrom}
            variant="ghost"
            aria-label={isMenuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            aria-expanded={isMenuOpen}
            aria-controls={MOBILE_NAV_ID}
            onClick={() => setOpenOnPath(isMenuOpen ? null : pathname)}
          >
            {isMenuOpen ? <CloseIcon /> : <MenuIcon />}
          </IconButton>
        </HStack>
      </Flex>
      {isMenuOpen && (
        <Box
          as="nav"
          id={MOBILE_NAV_ID}
          aria-label={t('nav.main')}
          hideFrom={desktopFrom}
          px="4"
          pb="4"
          borderTopWidth="1px"
          borderColor="border.muted"
        >
          <Box pt="3">
            <NavLinks pathname={pathname} direction="column" />
          </Box>
        </Box>
      )}
    </Box>
  );
}
