import { createElement, lazy, Suspense, useState, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { PublicLayout } from '../components/public-layout';
import { usePageTracking } from '../hooks/use-page-tracking';
import { isApiDocsEnabled } from '../lib/app-config';
import { NotFoundPage } from '../features/not-found/page';
import { firstScreen, SCREEN_LOADERS, type ScreenName } from './screen-loaders';

type Screen = ComponentType & { preload: () => Promise<void> };

/**
 * A lazily loaded screen that, once its chunk has arrived, renders at once instead of suspending
 * for a tick: a preloaded first screen then never shows a spinner inside its layout (which would
 * make the footer jump when the content replaces it).
 */
function lazyScreen(name: ScreenName): Screen {
  let loaded: ComponentType | undefined;
  const load = () =>
    SCREEN_LOADERS[name]().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(load);
  function LazyScreen() {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component later would remount the screen.
    const [component] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(component);
  }
  return Object.assign(LazyScreen, {
    preload: () =>
      load().then(
        () => undefined,
        () => undefined,
      ),
  });
}

// Every screen is its own chunk, so a visitor's first load carries no member code. The member
// route set is one more chunk, with the GraphQL client (Apollo), which visitors never load.
const MemberRoutes = lazy(() => import('./member-routes'));
// The API documentation is public: visitors see it in the public shell, members in theirs (with the member chunks).
const DevelopersPage = lazy(() => import('../features/developers/page'));
const MemberDevelopersShell = lazy(() => import('../features/developers/components/member-developers-shell'));
const SCREENS: Record<ScreenName, Screen> = {
  landing: lazyScreen('landing'),
  signIn: lazyScreen('signIn'),
  signUp: lazyScreen('signUp'),
  tos: lazyScreen('tos'),
  privacy: lazyScreen('privacy'),
  takedown: lazyScreen('takedown'),
  relaunch: lazyScreen('relaunch'),
};
const {
  landing: LandingPage,
  signIn: SignInPage,
  signUp: SignUpPage,
  tos: TosPage,
  privacy: PrivacyPage,
  takedown: TakedownPage,
  relaunch: RelaunchPage,
} = SCREENS;

/**
 * Start-up: the screen for `pathname` loads while the user request and translations are on their way. Settles (never
 * rejects) once it is there, or could not be had.
 */
export function preloadFirstScreen(pathname: string): Promise<void> {
  const name = firstScreen(pathname);
  return name ? SCREENS[name].preload() : Promise.resolve();
}

function VisitorRoutes() {
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <Routes>
        <Route index element={<LandingPage />} />
        <Route path="relaunch" element={<RelaunchPage />} />
        <Route element={<PublicLayout />}>
          <Route path="signin" element={<SignInPage />} />
          <Route path="signup" element={<SignUpPage />} />
          <Route path="tos" element={<TosPage />} />
          <Route path="privacy" element={<PrivacyPage />} />
          <Route path="takedown" element={<TakedownPage />} />
          {isApiDocsEnabled() && <Route path="developers" element={<DevelopersPage />} />}
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

/** Route set by authentication state: spinner while loading, then member or visitor routes. */
export function AppRoutes() {
  const { user, isLoading } = useAuth();
  usePageTracking();

  if (isLoading) return <FullScreenSpinner />;
  if (!user) return <VisitorRoutes />;
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <Routes>
        {isApiDocsEnabled() && (
          <Route path="developers" element={<MemberDevelopersShell />}>
            <Route index element={<DevelopersPage />} />
          </Route>
        )}
        <Route path="*" element={<MemberRoutes />} />
      </Routes>
    </Suspense>
  );
}
