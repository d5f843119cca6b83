import { useLayoutEffect, useRef } from 'react';
import { ComingSoonSection } from './components/coming-soon-section';
import { CountdownSection } from './components/countdown-section';
import { FeaturesSection } from './components/features-section';
import { GallerySection } from './components/gallery-section';
import { GirlfriendChatSection } from './components/girlfriend-chat-section';
import { HeroSection } from './components/hero-section';
import { LandingNav } from './components/landing-nav';
import { SelfAiSection } from './components/self-ai-section';
import { StoryGamesSection } from './components/story-games-section';
import { TextToVideoSection } from './components/text-to-video-section';
import { VipSection } from './components/vip-section';
import { PublicFooter } from '../../components/public-footer';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/skip-link';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { removeStaticLanding } from '../../prerender/static-landing';
import '../../styles/kit.css';
import './page.css';

/**
 * The public landing page (spec §1, §2), sections in the spec's order: hero, features, coming soon,
 * countdown, gallery, self AI, VIP groups (pricing), text to video, AI story games, AI girlfriend
 * chat, then the footer. Plain elements and CSS, no UI kit (decision 046): the visitor's first page
 * loads only React and the translations.
 */
export default function LandingPage() {
  useDocumentTitle();
  const page = useRef<HTMLDivElement>(null);
  // The pre-rendered copy (index.html) goes in the same frame as this one shows: no flash, no shift, focus kept.
  useLayoutEffect(() => removeStaticLanding(page.current), []);
  return (
    <div ref={page} className="lp-root lp-page">
      <SkipLink />
      <LandingNav />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="lp-page-main">
        <HeroSection />
        <FeaturesSection />
        <ComingSoonSection />
        <CountdownSection />
        <GallerySection />
        <SelfAiSection />
        <VipSection />
        <TextToVideoSection />
        <StoryGamesSection />
        <GirlfriendChatSection />
      </main>
      <PublicFooter />
    </div>
  );
}
