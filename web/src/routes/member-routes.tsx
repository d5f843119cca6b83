import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation, useSearchParams } from 'react-router';
import { useCurrentUser } from '../auth/auth-context';
import { MemberSession } from '../auth/member-session';
import { FullScreenSpinner } from '../components/full-screen-spinner';
import { MemberLayout } from '../components/member-layout';
import { canModerate } from '../features/moderation/moderation';
import { canOperate } from '../features/operator/operator';
import { NotFoundPage } from '../features/not-found/page';
import { safeReturnPath } from '../features/auth/return-path';
import { isSelfAiPath } from './self-ai-path';

// Loaded only once signed in (routes/app-routes.tsx), with the GraphQL client; every screen is its own chunk.
const TosPage = lazy(() => import('../features/legal/tos-page'));
const PrivacyPage = lazy(() => import('../features/legal/privacy-page'));
const RelaunchPage = lazy(() => import('../features/relaunch/page'));
const DashboardPage = lazy(() => import('../features/dashboard/page'));
const ChatPage = lazy(() => import('../features/chat/page'));
const StoriesPage = lazy(() => import('../features/stories/page'));
const GeneratorPage = lazy(() => import('../features/generator/page'));
const CharactersPage = lazy(() => import('../features/characters/page'));
const GalleryPage = lazy(() => import('../features/gallery/page'));
const ProfilePage = lazy(() => import('../features/profile/page'));
const AccessTokensPage = lazy(() => import('../features/access-tokens/page'));
const SubscribePage = lazy(() => import('../features/plans/page'));
const SelfAiPage = lazy(() => import('../features/self-ai/page'));
const ModerationPage = lazy(() => import('../features/moderation/page'));
const TakedownPage = lazy(() => import('../features/takedown/page'));
const OperatorPage = lazy(() => import('../features/operator/page'));

function SelfAiOrNotFound() {
  const { pathname } = useLocation();
  return isSelfAiPath(pathname) ? <SelfAiPage /> : <NotFoundPage />;
}

/** Already signed in: the sign-in screen leads where it was asked to return to (`?next=`), or home. */
function SignedInRedirect() {
  const [searchParams] = useSearchParams();
  return <Navigate to={safeReturnPath(searchParams.get('next'), window.location.origin) ?? '/'} replace />;
}

/** Moderators and admins get the moderation screen; to anyone else it does not exist (the server checks too). */
function ModeratorsOnly() {
  const { role } = useCurrentUser();
  return canModerate(role) ? <ModerationPage /> : <NotFoundPage />;
}

/** Admins get the operator screen; to anyone else it does not exist (the server checks too). */
function AdminsOnly() {
  const { role } = useCurrentUser();
  return canOperate(role) ? <OperatorPage /> : <NotFoundPage />;
}

/** The signed-in route set, inside the session's GraphQL client. */
export default function MemberRoutes() {
  return (
    <MemberSession>
      <Suspense fallback={<FullScreenSpinner />}>
        <Routes>
          {/* The relaunch notice is a full-page screen of its own, outside the member shell. */}
          <Route path="relaunch" element={<RelaunchPage />} />
          <Route element={<MemberLayout />}>
            <Route index element={<DashboardPage />} />
            <Route path="chat/:conversationId?" element={<ChatPage />} />
            <Route path="stories/:storyId?" element={<StoriesPage />} />
            <Route path="generator" element={<GeneratorPage />} />
            <Route path="characters" element={<CharactersPage />} />
            <Route path="gallery" element={<GalleryPage />} />
            <Route path="profile" element={<ProfilePage />} />
            <Route path="settings/tokens" element={<AccessTokensPage />} />
            <Route path="subscribe" element={<SubscribePage />} />
            <Route path="tos" element={<TosPage />} />
            <Route path="privacy" element={<PrivacyPage />} />
            <Route path="takedown" element={<TakedownPage />} />
            <Route path="moderation" element={<ModeratorsOnly />} />
            <Route path="moderation/audit" element={<ModeratorsOnly />} />
            <Route path="operator" element={<AdminsOnly />} />
            {/* Already signed in: the sign-in screens lead home. */}
            <Route path="signin" element={<SignedInRedirect />} />
            <Route path="signup" element={<Navigate to="/" replace />} />
            <Route path="*" element={<SelfAiOrNotFound />} />
          </Route>
        </Routes>
      </Suspense>
    </MemberSession>
  );
}
