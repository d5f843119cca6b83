import { Box } from '@chakra-ui/react';
import { Suspense, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useCurrentUser } from '../auth/auth-context';
import { useTokenBalanceSync } from '../auth/use-token-balance-sync';
import { setToastNavigator } from '../lib/error-toasts';
import { PageSpinner } from './full-screen-spinner';
import { MemberNotices } from '../features/moderation/components/member-notices';
import { NavBar } from './nav-bar';
import { ProviderBanner } from './provider-banner';
import { AchievementToasts } from '../features/profile/components/achievement-toasts';
import { SkipLink, MAIN_CONTENT_ID } from './skip-link';

/** Shell of every signed-in screen: navigation bar on top, the demo/AI-found banner and moderators' notices, the screen below. */
export function MemberLayout() {
  const user = useCurrentUser();
  useTokenBalanceSync(user.id);
  const navigate = useNavigate();
  // Toasts render outside the router: their links (e.g. "See plans") navigate through it.
  useEffect(() => {
    setToastNavigator((path) => void navigate(path));
    return () => setToastNavigator(null);
  }, [navigate]);

  return (
    <Box minH="100dvh" bg="bg">
      <SkipLink />
      <AchievementToasts />
      <NavBar />
      <Box
        as="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        maxW="7xl"
        mx="auto"
        px={{ base: '4', md: '6' }}
        py="8"
        _focus={{ outline: 'none' }}
      >
        <ProviderBanner />
        <MemberNotices />
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
