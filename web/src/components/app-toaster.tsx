import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toaster } from '../lib/toaster';
import { QuietBoundary } from './quiet-boundary';

const ToastRegion = lazy(() => import('./toast-region'));
const ToastIsland = lazy(() => import('./toast-island'));

/**
 * Mounts the toast region (its own chunk) on the first toast. A toast asked for before the region
 * arrives waits in lib/toaster.ts and is shown, for its full duration, once it does. `standalone`: outside the
 * app's Chakra provider (the landing), the region comes with its own.
 */
export function AppToaster({ standalone = false }: { standalone?: boolean }) {
  const isWanted = useSyncExternalStore(toaster.onRequest, toaster.hasRequests);
  if (!isWanted) return null;
  // A region that cannot load (offline, a chunk gone after a deploy) costs the toasts, not the page.
  return (
    <QuietBoundary what="toast region">
      <Suspense fallback={null}>{standalone ? <ToastIsland /> : <ToastRegion />}</Suspense>
    </QuietBoundary>
  );
}
