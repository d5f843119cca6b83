import { Box, Button, Flex, HStack } from '@chakra-ui/react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet } from 'react-router';
import { BrandLink } from './brand-link';
import { PageSpinner } from './full-screen-spinner';
import { LanguagePicker } from './language-picker';
import { PublicFooter } from './public-footer';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

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
