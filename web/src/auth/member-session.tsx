import { ApolloProvider, useQuery } from '@apollo/client/react';
import { useEffect, type ReactNode } from 'react';
import { createApolloClient, type AppApollo } from '../lib/apollo-client';
import { useAuth, useCurrentUser, type CurrentUser } from './auth-context';
import { MeDocument } from './auth-operations';
import { onSessionEnd } from './session-events';

let sessionApollo: AppApollo | null = null;

/**
 * The signed-in session's GraphQL client, made on first use with the member (from the auth state)
 * already in its cache: member screens read `me` from there, the live balance updates it, and a lost
 * session is recognised by it (lib/apollo-client.ts). The session's end disposes of it.
 */
function apolloFor(member: CurrentUser): AppApollo {
  if (sessionApollo) return sessionApollo;
  const apollo = createApolloClient();
  // The type name makes it the normalised `User:<id>` entry the balance subscription updates.
  const me = { ...member, __typename: 'User' as const };
  apollo.client.writeQuery({ query: MeDocument, data: { me } });
  sessionApollo = apollo;
  onSessionEnd(() => {
    if (sessionApollo === apollo) sessionApollo = null;
    apollo.dispose();
  });
  return apollo;
}

/** Hands every change the GraphQL cache sees to `me` (the live token balance) to the auth state. */
function CurrentUserSync() {
  const { updateUser } = useAuth();
  const { data } = useQuery(MeDocument, { fetchPolicy: 'cache-only' });
  const me = data?.me;
  useEffect(() => {
    if (me) updateUser(me);
  }, [me, updateUser]);
  return null;
}

/** Wraps the member screens: the session's GraphQL client, kept in step with the auth state. */
export function MemberSession({ children }: { children: ReactNode }) {
  const apollo = apolloFor(useCurrentUser());
  return (
    <ApolloProvider client={apollo.client}>
      <CurrentUserSync />
      {children}
    </ApolloProvider>
  );
}
