import { ChakraProvider } from '@chakra-ui/react';
import { useEffect, type ReactNode } from 'react';
import { BrowserRouter, useLocation, useNavigate } from 'react-router';
import { useAuth, type CurrentUser } from './auth/auth-context';
import { AuthProvider } from './auth/auth-provider';
import { AppNavigationProvider } from './components/app-link';
import { AppToaster } from './components/app-toaster';
import { ErrorBoundary } from './components/error-boundary';
import { AppRoutes } from './routes/app-routes';
import { firstScreen, loadFullEnglish } from './routes/screen-loaders';
import { system } from './theme/system';

/**
 * The landing page shows with the English of its own sections; a member, or a visitor anywhere else,
 * gets the whole catalog (screens that render first show their text once it arrives).
 */
function FullEnglishLoader() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const needsFullEnglish = Boolean(user) || firstScreen(pathname) !== 'landing';
  useEffect(() => {
    if (needsFullEnglish) loadFullEnglish().catch((error: unknown) => console.warn('Could not load the English texts.', error));
  }, [needsFullEnglish]);
  return null;
}

/** App links (components/app-link.tsx) go through the router; one to the page shown replaces it, as the router's own links do. */
function RouterNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  return (
    <AppNavigationProvider navigate={(to) => void navigate(to, { replace: to === pathname + search })}>{children}</AppNavigationProvider>
  );
}

/**
 * `initialUser`: the current-member request main.tsx started at once (without it, AuthProvider makes it); `settledUser`:
 * its answer, when the app starts after it came (from the landing).
 */
export function App({ initialUser, settledUser }: { initialUser?: Promise<CurrentUser | null>; settledUser?: CurrentUser | null }) {
  return (
    <ChakraProvider value={system}>
      <ErrorBoundary>
        <BrowserRouter>
          <RouterNavigation>
            <AuthProvider initialUser={initialUser} settledUser={settledUser}>
              <FullEnglishLoader />
              <AppRoutes />
            </AuthProvider>
          </RouterNavigation>
        </BrowserRouter>
      </ErrorBoundary>
      <AppToaster />
    </ChakraProvider>
  );
}
