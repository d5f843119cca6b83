import { useEffect, useState } from 'react';

/** The current time, renewed every `intervalMs` (for "due in 3 hours" texts that must not go stale). */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
