import { Box, Button, Flex, HStack, Link, Text } from '@chakra-ui/react';
import { Suspense } from 'react';
import { Link as RouterLink, Outlet } from 'react-router';
import { BrandLink } from './brand-link';
import { PageSpinner } from './full-screen-spinner';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

export const COPYRIGHT_YEAR = 2025;

export function PublicFooter() {
  return (
    <Box as="footer" borderTopWidth="1px" borderColor="border.muted" py="8" px="4">
      <Flex
        maxW="7xl"
        mx="auto"
        direction={{ base: 'column', md: 'row' }}
        gap="4"
        justify="space-between"
        align={{ base: 'flex-start', md: 'center' }}
        fontSize="sm"
        color="fg.muted"
      >
        <Text>18+ only. All content is AI-generated for adults. © {COPYRIGHT_YEAR} All rights reserved.</Text>
        <HStack as="nav" aria-label="Legal" gap="4">
          <Link asChild color="fg.muted">
            <RouterLink to="/tos">Terms of Service</RouterLink>
          </Link>
          <Link asChild color="fg.muted">
            <RouterLink to="/privacy">Privacy Policy</RouterLink>
          </Link>
        </HStack>
      </Flex>
    </Box>
  );
}

/** Shell of the signed-out screens other than the landing page (sign-in, sign-up, legal). */
export function PublicLayout() {
  return (
    <Flex direction="column" minH="100dvh" bg="bg">
      <SkipLink />
      <Box as="header" borderBottomWidth="1px" borderColor="border.muted">
        <Flex maxW="7xl" mx="auto" px={{ base: '4', md: '6' }} h="16" align="center" gap="4">
          <BrandLink />
          <HStack as="nav" aria-label="Account" gap="2" ms="auto">
            <Button asChild variant="ghost" size="sm">
              <RouterLink to="/signin">Log in</RouterLink>
            </Button>
            <Button asChild colorPalette="purple" size="sm">
              <RouterLink to="/signup">Get started</RouterLink>
            </Button>
          </HStack>
        </Flex>
      </Box>
      <Box as="main" id={MAIN_CONTENT_ID} tabIndex={-1} flex="1" px={{ base: '4', md: '6' }} py="10" _focus={{ outline: 'none' }}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </Box>
    </Flex>
  );
}
