import { createContext, useContext } from 'react';
import type { CurrentUserFragment, LoginInput, RegisterInput } from '../gql/graphql';

export type CurrentUser = CurrentUserFragment;

export interface AuthContextValue {
  /** The signed-in member; null when signed out. Only its existence decides the route set. */
  user: CurrentUser | null;
  /** True until the first answer about the current member arrives, and while signing out. */
  isLoading: boolean;
  signIn: (input: LoginInput) => Promise<CurrentUser>;
  register: (input: RegisterInput) => Promise<CurrentUser>;
  signOut: () => Promise<void>;
  /**
   * For the member screens' GraphQL cache (auth/member-session.tsx): a newer copy of the signed-in
   * member, e.g. the live token balance. Ignored when it is not the signed-in member.
   */
  updateUser: (user: CurrentUser) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** For member screens, which only render while signed in. */
export function useCurrentUser(): CurrentUser {
  const { user } = useAuth();
  if (!user) throw new Error('useCurrentUser must be used on a signed-in screen');
  return user;
}

/** Thrown when the server accepted the credentials but the browser kept no session cookie. */
export class SessionNotEstablishedError extends Error {
  constructor() {
    super('Signed in, but the browser did not keep the session. Please allow cookies for this site.');
    this.name = 'SessionNotEstablishedError';
  }
}
