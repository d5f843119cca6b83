import { StrictMode, startTransition } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { AppNavigationProvider, type AppNavigate } from '../../components/app-link';
import { AppToaster } from '../../components/app-toaster';
import { startI18n } from '../../i18n/change-language';
import { trackPageView } from '../../lib/analytics';
import { STATIC_LANDING_ID } from '../../prerender/static-landing';
import LandingPage from './page';

/** Started while the member request is on its way, so the visitor's language arrives as early as it can. */
export function prepareLanding(): void {
  void startI18n();
}

/**
 * A visitor's "/" without the app around it (decision 046): React, the translations and the landing page, no router,
 * UI kit or session screens. A link into the app calls `enterApp`, which starts the app on that path; the language
 * menu and the toasts bring their own UI kit when first used. Returns the root, which the app takes over.
 */
export async function startLanding(container: HTMLElement, enterApp: AppNavigate): Promise<Root> {
  await startI18n();
  trackPageView(window.location.pathname + window.location.search);
  const root = createRoot(container);
  const render = () =>
    root.render(
      <StrictMode>
        <AppNavigationProvider navigate={enterApp}>
          <LandingPage />
        </AppNavigationProvider>
        <AppToaster standalone />
      </StrictMode>,
    );
  // Behind the pre-rendered copy nothing waits for this render: as a transition React yields to the browser every few
  // milliseconds, so a tap or a scroll on the copy is never held up by one long task.
  if (document.getElementById(STATIC_LANDING_ID)) startTransition(render);
  else render();
  return root;
}
