import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toaster } from '../lib/toaster';

const ToastRegion = lazy(() => import('./toast-region'));

/**
 * Mounts the toast region (its own chunk) on the first toast. A toast asked for before the region
 * arrives waits in lib/toaster.ts and is shown, for its full duration, once it does.
 */
export function AppToaster() {
  const isWanted = useSyncExternalStore(toaster.onRequest, toaster.hasRequests);
  if (!isWanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastRegion />
    </Suspense>
  );
}
