import { ApolloProvider } from '@apollo/client/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from './auth/auth-provider';
import { AppToaster } from './components/app-toaster';
import { ErrorBoundary } from './components/error-boundary';
import type { AppApollo } from './lib/apollo-client';
import { AppRoutes } from './routes/app-routes';

export function App({ apollo }: { apollo: AppApollo }) {
  return (
    <ChakraProvider value={defaultSystem}>
      <ErrorBoundary>
        <ApolloProvider client={apollo.client}>
          <BrowserRouter>
            <AuthProvider reconnectSubscriptions={apollo.reconnectSubscriptions}>
              <AppRoutes />
            </AuthProvider>
          </BrowserRouter>
        </ApolloProvider>
      </ErrorBoundary>
      <AppToaster />
    </ChakraProvider>
  );
}
