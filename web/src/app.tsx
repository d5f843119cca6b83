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

/** App links (components/app-link.tsx) go through the router. */
function RouterNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  return <AppNavigationProvider navigate={(to) => void navigate(to)}>{children}</AppNavigationProvider>;
}

/** `initialUser`: the current-member request main.tsx started at once (without it, AuthProvider makes it). */
export function App({ initialUser }: { initialUser?: Promise<CurrentUser | null> }) {
  return (
    <ChakraProvider value={system}>
      <ErrorBoundary>
        <BrowserRouter>
          <RouterNavigation>
            <AuthProvider initialUser={initialUser}>
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
