import { ChakraProvider } from '@chakra-ui/react';
import { useEffect } from 'react';
import { BrowserRouter, useLocation } from 'react-router';
import { useAuth, type CurrentUser } from './auth/auth-context';
import { AuthProvider } from './auth/auth-provider';
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

/** `initialUser`: the current-member request main.tsx started at once (without it, AuthProvider makes it). */
export function App({ initialUser }: { initialUser?: Promise<CurrentUser | null> }) {
  return (
    <ChakraProvider value={system}>
      <ErrorBoundary>
        <BrowserRouter>
          <AuthProvider initialUser={initialUser}>
            <FullEnglishLoader />
            <AppRoutes />
          </AuthProvider>
        </BrowserRouter>
      </ErrorBoundary>
      <AppToaster />
    </ChakraProvider>
  );
}
