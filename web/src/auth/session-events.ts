/**
 * The end of a session (signing out, or signing in over an earlier session), announced without the
 * auth provider knowing who keeps per-session state: the member screens' GraphQL client drops its
 * socket and cache here (auth/member-session.tsx), so the next member starts from nothing.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

/** Calls `listener` once, when the current session ends; returns a function that cancels it. */
export function onSessionEnd(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function endSession(): void {
  const current = [...listeners];
  listeners.clear();
  for (const listener of current) {
    try {
      listener();
    } catch (error) {
      console.error('A session-end handler failed', error);
    }
  }
}
