import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { MemberLayout } from '../components/member-layout';
import { PublicLayout } from '../components/public-layout';
import { usePageTracking } from '../hooks/use-page-tracking';
import { NotFoundPage } from '../pages/not-found-page';

// Every screen is its own chunk, so a visitor's first load carries no member code.
const LandingPage = lazy(() => import('../pages/landing-page'));
const SignInPage = lazy(() => import('../pages/signin-page'));
const SignUpPage = lazy(() => import('../pages/signup-page'));
const TosPage = lazy(() => import('../pages/tos-page'));
const PrivacyPage = lazy(() => import('../pages/privacy-page'));
const RelaunchPage = lazy(() => import('../pages/relaunch-page'));
const DashboardPage = lazy(() => import('../pages/dashboard-page'));
const ChatPage = lazy(() => import('../pages/chat-page'));
const GeneratorPage = lazy(() => import('../pages/generator-page'));
const CharactersPage = lazy(() => import('../pages/characters-page'));
const GalleryPage = lazy(() => import('../pages/gallery-page'));
const ProfilePage = lazy(() => import('../pages/profile-page'));
const SubscribePage = lazy(() => import('../pages/subscribe-page'));
const SelfAiPage = lazy(() => import('../pages/self-ai-page'));

/** The self-AI upload page answers any path ending in "-self-ai" (spec §2). */
export function isSelfAiPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, '').endsWith('-self-ai');
}

function SelfAiOrNotFound() {
  const { pathname } = useLocation();
  return isSelfAiPath(pathname) ? <SelfAiPage /> : <NotFoundPage />;
}

function MemberRoutes() {
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <Routes>
        {/* The relaunch notice is a full-page screen of its own, outside the member shell. */}
        <Route path="relaunch" element={<RelaunchPage />} />
        <Route element={<MemberLayout />}>
          <Route index element={<DashboardPage />} />
          <Route path="chat/:conversationId?" element={<ChatPage />} />
          <Route path="generator" element={<GeneratorPage />} />
          <Route path="characters" element={<CharactersPage />} />
          <Route path="gallery" element={<GalleryPage />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="subscribe" element={<SubscribePage />} />
          <Route path="tos" element={<TosPage />} />
          <Route path="privacy" element={<PrivacyPage />} />
          {/* Already signed in: the sign-in screens lead home. */}
          <Route path="signin" element={<Navigate to="/" replace />} />
          <Route path="signup" element={<Navigate to="/" replace />} />
          <Route path="*" element={<SelfAiOrNotFound />} />
        </Route>
      </Routes>
    </Suspense>
  );
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
  return user ? <MemberRoutes /> : <VisitorRoutes />;
}
