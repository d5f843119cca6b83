import { useApolloClient, useQuery } from '@apollo/client/react';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { LoginInput, RegisterInput } from '../gql/graphql';
import { AuthContext, SessionNotEstablishedError, type AuthContextValue, type CurrentUser } from './auth-context';
import { LoginDocument, LogoutDocument, MeDocument, RegisterDocument } from './auth-operations';

const SIGN_OUT_FALLBACK_URL = '/api/logout';

export function AuthProvider({ reconnectSubscriptions, children }: { reconnectSubscriptions: () => void; children: ReactNode }) {
  const client = useApolloClient();
  const navigate = useNavigate();
  const [isSigningOut, setIsSigningOut] = useState(false);

  // Spec §9: the user request is never served from cache on load.
  const { data, previousData, loading } = useQuery(MeDocument, {
    fetchPolicy: 'network-only',
    nextFetchPolicy: 'cache-first',
  });
  // While the store resets after signing in or out, keep the last answer instead of flashing.
  const settled = data ?? previousData;
  const user = settled?.me ?? null;
  const isLoading = (loading && !settled) || isSigningOut;

  /** A new session cookie: fresh socket, drop everything cached for the previous session. */
  const startSession = useCallback(async (): Promise<CurrentUser> => {
    reconnectSubscriptions();
    await client.resetStore();
    const cached = client.readQuery({ query: MeDocument });
    if (!cached?.me) throw new SessionNotEstablishedError();
    return cached.me;
  }, [client, reconnectSubscriptions]);

  const signIn = useCallback(
    async (input: LoginInput) => {
      const result = await client.mutate({
        mutation: LoginDocument,
        variables: { input },
      });
      if (!result.data?.login) throw new Error('Sign in returned no member');
      return startSession();
    },
    [client, startSession],
  );

  const register = useCallback(
    async (input: RegisterInput) => {
      const result = await client.mutate({
        mutation: RegisterDocument,
        variables: { input },
      });
      if (!result.data?.register) throw new Error('Registration returned no member');
      return startSession();
    },
    [client, startSession],
  );

  const signOut = useCallback(async () => {
    // The spinner replaces the member screens at once, so none of them refetch without a session.
    setIsSigningOut(true);
    try {
      await client.mutate({ mutation: LogoutDocument });
    } catch {
      // The REST endpoint ends the session too and lands on "/".
      window.location.href = SIGN_OUT_FALLBACK_URL;
      return;
    }
    reconnectSubscriptions();
    client.writeQuery({ query: MeDocument, data: { me: null } });
    await navigate('/');
    try {
      await client.resetStore();
    } finally {
      setIsSigningOut(false);
    }
  }, [client, navigate, reconnectSubscriptions]);

  const value = useMemo<AuthContextValue>(
    () => ({ user, isLoading, signIn, register, signOut }),
    [user, isLoading, signIn, register, signOut],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
