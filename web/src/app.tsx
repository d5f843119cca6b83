import { ChakraProvider } from '@chakra-ui/react';
import { BrowserRouter } from 'react-router';
import type { CurrentUser } from './auth/auth-context';
import { AuthProvider } from './auth/auth-provider';
import { AppToaster } from './components/app-toaster';
import { ErrorBoundary } from './components/error-boundary';
import { AppRoutes } from './routes/app-routes';
import { system } from './theme/system';

/** `initialUser`: the current-member request main.tsx started at once (without it, AuthProvider makes it). */
export function App({ initialUser }: { initialUser?: Promise<CurrentUser | null> }) {
  return (
    <ChakraProvider value={system}>
      <ErrorBoundary>
        <BrowserRouter>
          <AuthProvider initialUser={initialUser}>
            <AppRoutes />
          </AuthProvider>
        </BrowserRouter>
      </ErrorBoundary>
      <AppToaster />
    </ChakraProvider>
  );
}
