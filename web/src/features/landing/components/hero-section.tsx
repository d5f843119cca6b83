import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../../../styles/kit.css';
import './hero-section.css';
import { AppLink } from '../../../components/app-link';
import { trackEvent } from '../../../lib/analytics';
import { getBrandName, getLaunchDate, getMainSiteUrl, getSocialCommunityUrl } from '../../../lib/app-config';
import { formatLaunchDate } from '../format';
import { ArrowRightIcon, ChatBubbleIcon, ExternalLinkIcon, PeopleIcon, ShieldIcon } from '../../../components/icons/landing-icons';

const STATS = [
  { value: 'landing.hero.usersStat', label: 'landing.hero.usersStatLabel' },
  { value: 'landing.hero.featuresStat', label: 'landing.hero.featuresStatLabel' },
  { value: 'landing.hero.languagesStat', label: 'landing.hero.languagesStatLabel' },
] as const;

/** Hero (spec §1, §2): headline, the beta claim, the community invitation and the main-site button. */
export function HeroSection() {
  const { t, i18n } = useTranslation();
  const brand = getBrandName();
  const [launchDate] = useState(getLaunchDate);
  // Read once: the badge does not need to flip live (the countdown section does).
  const [isLaunched] = useState(() => launchDate.getTime() <= Date.now());

  return (
    <section id="about" aria-labelledby="hero-heading" className="lp-hero">
      <div className="lp-container lp-container-5xl">
        <div className="lp-hero-stack">
          <span className="lp-badge lp-badge-surface lp-badge-lg lp-badge-pill lp-hero-badge">
            {isLaunched ? t('landing.hero.badgeLive') : t('landing.hero.badge', { date: formatLaunchDate(launchDate, i18n.language) })}
          </span>
          <h1 id="hero-heading" className="lp-heading lp-hero-title">
            {t('landing.hero.title')}
          </h1>
          <p className="lp-hero-subtitle">{t('landing.hero.subtitle', { brand })}</p>
          <div className="lp-hero-actions">
            <AppLink to="/signup" className="lp-btn lp-btn-solid lp-btn-xl lp-btn-pill lp-hero-cta">
              {t('landing.hero.getStarted')}
              <ArrowRightIcon />
            </AppLink>
            <a
              href={getMainSiteUrl()}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="hero-main-site"
              className="lp-btn lp-btn-outline lp-btn-xl lp-btn-pill lp-hero-cta"
            >
              {t('landing.hero.visitMainSite')}
              <ExternalLinkIcon />
              <span className="lp-sr-only">{t('common.opensInNewTab')}</span>
            </a>
          </div>

          <div className="lp-hero-community">
            <div className="lp-hero-community-icon">
              <PeopleIcon className="lp-hero-community-icon-svg" />
            </div>
            <div className="lp-hero-community-text">
              <p className="lp-hero-users-claim" data-testid="hero-users-claim">
                {t('landing.hero.usersClaim')}
              </p>
              <p className="lp-hero-community-invite">{t('landing.hero.communityInvite')}</p>
            </div>
            <a
              href={getSocialCommunityUrl()}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => trackEvent('social', 'community')}
              data-testid="hero-community-link"
              className="lp-btn lp-btn-subtle lp-btn-md lp-hero-community-link"
            >
              <ChatBubbleIcon />
              {t('landing.hero.joinCommunity')}
              <span className="lp-sr-only">{t('common.opensInNewTab')}</span>
            </a>
          </div>

          <dl className="lp-hero-stats">
            {STATS.map((stat) => (
              <div key={stat.value} className="lp-hero-stat">
                <dt className="lp-hero-stat-label">{t(stat.label)}</dt>
                <dd className="lp-hero-stat-value">{t(stat.value)}</dd>
              </div>
            ))}
          </dl>
          <div className="lp-hero-adults">
            <ShieldIcon className="lp-hero-adults-icon" />
            <p>{t('common.adultsOnly')}</p>
          </div>
        </div>
      </div>
    </section>
  );
}
