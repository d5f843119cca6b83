import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { LoginInput, RegisterInput } from '../gql/graphql';
import { fetchCurrentUser, login, register as registerMember, signOut as endServerSession } from '../lib/session-api';
import { AuthContext, SessionNotEstablishedError, type AuthContextValue, type CurrentUser } from './auth-context';
import { endSession } from './session-events';

const SIGN_OUT_FALLBACK_URL = '/api/logout';

const USER_FIELDS = ['id', 'email', 'firstName', 'lastName', 'profileImageUrl', 'createdAt', 'tokens', 'role'] as const;

function sameUser(a: CurrentUser, b: CurrentUser): boolean {
  return USER_FIELDS.every((field) => a[field] === b[field]);
}

/**
 * The authentication state with plain `fetch` (lib/session-api.ts: the `me` query, then sign-in,
 * registration and sign-out under `/api`), so the signed-out screens load no GraphQL client. The
 * member screens keep it current from their GraphQL cache through `updateUser` (auth/member-session.tsx).
 */
export function AuthProvider({
  initialUser,
  settledUser,
  children,
}: {
  initialUser?: Promise<CurrentUser | null>;
  /** What `initialUser` has already settled to (the app started from the landing): no loading state in between. */
  settledUser?: CurrentUser | null;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const [user, setUser] = useState<CurrentUser | null>(settledUser ?? null);
  const [isLoaded, setIsLoaded] = useState(settledUser !== undefined);
  const [isSigningOut, setIsSigningOut] = useState(false);
  // Spec §7: the user request is made once per page load, never retried nor cached.
  const request = useRef<Promise<CurrentUser | null> | null>(null);
  // A sign-in or sign-out finished before the first answer arrived wins over that answer.
  const decidedByMember = useRef(false);

  useEffect(() => {
    let active = true;
    request.current ??= initialUser ?? fetchCurrentUser();
    const settle = (loaded: CurrentUser | null) => {
      if (!active) return;
      // A transition: React renders the first screen (the large landing page or the dashboard) in
      // slices, between which the browser can paint and handle input.
      startTransition(() => {
        if (!decidedByMember.current) setUser(loaded);
        setIsLoaded(true);
      });
    };
    // An unreachable server or a failing answer leaves the visitor signed out.
    request.current.then(settle, () => settle(null));
    return () => {
      active = false;
    };
  }, [initialUser]);

  /** The server set a new session cookie: check the browser kept it, then switch to that member. */
  const startSession = useCallback(async (): Promise<CurrentUser> => {
    const confirmed = await fetchCurrentUser();
    if (!confirmed) throw new SessionNotEstablishedError();
    endSession();
    decidedByMember.current = true;
    setUser(confirmed);
    setIsLoaded(true);
    return confirmed;
  }, []);

  const signIn = useCallback(
    async (input: LoginInput) => {
      await login(input);
      return startSession();
    },
    [startSession],
  );

  const register = useCallback(
    async (input: RegisterInput) => {
      await registerMember(input);
      return startSession();
    },
    [startSession],
  );

  const signOut = useCallback(async () => {
    // The spinner replaces the member screens at once, so none of them refetch without a session.
    setIsSigningOut(true);
    try {
      await endServerSession();
    } catch {
      // The REST endpoint ends the session too and lands on "/".
      window.location.href = SIGN_OUT_FALLBACK_URL;
      return;
    }
    endSession();
    decidedByMember.current = true;
    setUser(null);
    try {
      await navigate('/');
    } finally {
      setIsSigningOut(false);
    }
  }, [navigate]);

  const updateUser = useCallback((next: CurrentUser) => {
    setUser((current) => (current && current.id === next.id && !sameUser(current, next) ? next : current));
  }, []);

  const isLoading = !isLoaded || isSigningOut;
  const value = useMemo<AuthContextValue>(
    () => ({ user, isLoading, signIn, register, signOut, updateUser }),
    [user, isLoading, signIn, register, signOut, updateUser],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
