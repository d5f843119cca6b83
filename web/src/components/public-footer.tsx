import { useTranslation } from 'react-i18next';
import { i18n } from '../i18n/i18n';
import { trackEvent } from '../lib/analytics';
import { getBrandName, getSocialCommunityUrl, getSocialMicroblogUrl, getSupportEmail, isApiDocsEnabled } from '../lib/app-config';
import { supportMailto, watchMailClientLaunch } from '../lib/support-contact';
import { AppLink } from './app-link';
import { BrandLink } from './brand-link';
import { AtSignIcon, ChatBubbleIcon, ExternalLinkIcon, MailIcon, PeopleIcon, ShieldIcon, type LandingIcon } from './icons/landing-icons';
import '../styles/kit.css';
import './public-footer.css';

/** Spec §2, §9: the copyright line names 2025. */
export const COPYRIGHT_YEAR = 2025;

/** Support link click: analytics, then the copy-and-alert fallback if no mail client opens (spec §2). */
function onSupportClick(address: string) {
  trackEvent('support', 'email');
  void watchMailClientLaunch(address, {
    copied: (email) => i18n.t('support.copied', { email }),
    manual: (email) => i18n.t('support.manual', { email }),
  });
}

function SocialTile({
  href,
  label,
  icon: TileIcon,
  onClick,
  testId,
}: {
  href: string;
  label: string;
  icon: LandingIcon;
  onClick: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={onClick}
      className="lp-footer-tile lp-footer-social"
      data-testid={testId}
    >
      <TileIcon className="lp-footer-tile-icon lp-footer-social-icon" />
      <span className="lp-footer-tile-label">{label}</span>
      <ExternalLinkIcon className="lp-footer-external-icon" />
      <span className="lp-sr-only">{t('common.opensInNewTab')}</span>
    </a>
  );
}

function FooterHeading({ children, id }: { children: string; id?: string }) {
  return (
    <h2 id={id} className="lp-heading lp-footer-heading">
      {children}
    </h2>
  );
}

/** The legal pages (and the API docs when enabled), as links for a list or a row. */
function useLegalLinks() {
  const { t } = useTranslation();
  return [
    { to: '/tos', label: t('footer.terms') },
    { to: '/privacy', label: t('footer.privacy') },
    { to: '/takedown', label: t('footer.takedown') },
    ...(isApiDocsEnabled() ? [{ to: '/developers', label: t('developers.link') }] : []),
  ];
}

function LegalLinks() {
  const links = useLegalLinks();
  return (
    <ul className="lp-footer-list">
      {links.map(({ to, label }) => (
        <li key={to}>
          <AppLink to={to} className="lp-footer-link">
            {label}
          </AppLink>
        </li>
      ))}
    </ul>
  );
}

/** The 18+ notice and the copyright line. */
function BottomLine() {
  const { t } = useTranslation();
  return (
    <div className="lp-footer-bottom-line">
      <div className="lp-footer-notice">
        <ShieldIcon className="lp-footer-notice-icon" />
        <p data-testid="adult-notice">{t('footer.adultNotice')}</p>
      </div>
      <p className="lp-footer-copyright" data-testid="copyright">
        {t('footer.copyright', { year: COPYRIGHT_YEAR, brand: getBrandName() })}
      </p>
    </div>
  );
}

function CompactFooter() {
  const { t } = useTranslation();
  const legalLinks = useLegalLinks();
  const supportEmail = getSupportEmail();
  return (
    <footer className="lp-footer lp-footer-compact">
      <div className="lp-footer-compact-inner">
        <nav aria-label={t('footer.legalHeading')} className="lp-footer-compact-nav">
          {legalLinks.map(({ to, label }) => (
            <AppLink key={to} to={to} className="lp-footer-link">
              {label}
            </AppLink>
          ))}
          <a href={supportMailto(supportEmail)} className="lp-footer-link" onClick={() => onSupportClick(supportEmail)}>
            {supportEmail}
          </a>
        </nav>
        <BottomLine />
      </div>
    </footer>
  );
}

/**
 * Site footer (spec §2): social links, the forum tile (Coming Soon), support e-mail, legal links, the
 * 18+ notice and the copyright line. `compact` is the slim version under sign-in, sign-up and legal.
 */
export function PublicFooter({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const supportEmail = getSupportEmail();

  if (compact) return <CompactFooter />;

  return (
    <footer className="lp-footer lp-footer-full">
      <div className="lp-container lp-container-6xl">
        <div className="lp-footer-grid">
          <div className="lp-footer-about">
            <div>
              <BrandLink />
            </div>
            <p className="lp-footer-tagline">{t('footer.tagline')}</p>
          </div>

          <div>
            <FooterHeading>{t('footer.communityHeading')}</FooterHeading>
            <ul className="lp-footer-list">
              <li>
                <SocialTile
                  href={getSocialMicroblogUrl()}
                  label={t('footer.microblog')}
                  icon={AtSignIcon}
                  onClick={() => trackEvent('social', 'microblog')}
                  testId="social-microblog"
                />
              </li>
              <li>
                <SocialTile
                  href={getSocialCommunityUrl()}
                  label={t('footer.community')}
                  icon={ChatBubbleIcon}
                  onClick={() => trackEvent('social', 'community')}
                  testId="social-community"
                />
              </li>
              <li>
                {/* Not a link yet: the forum opens later (spec §2: a disabled tile marked Coming Soon). */}
                <div aria-disabled="true" className="lp-footer-tile lp-footer-forum" data-testid="forum-tile">
                  <PeopleIcon className="lp-footer-tile-icon" />
                  <span className="lp-footer-tile-label">{t('footer.forum')}</span>
                  <span className="lp-footer-forum-badge">{t('common.comingSoon')}</span>
                </div>
              </li>
            </ul>
          </div>

          <div>
            <FooterHeading>{t('footer.supportHeading')}</FooterHeading>
            <p className="lp-footer-support-text">{t('footer.supportText')}</p>
            <a
              href={supportMailto(supportEmail)}
              onClick={() => onSupportClick(supportEmail)}
              className="lp-btn lp-btn-outline lp-btn-sm"
              data-testid="support-email"
            >
              <MailIcon />
              {supportEmail}
            </a>
          </div>

          <nav aria-labelledby="footer-legal-heading">
            <FooterHeading id="footer-legal-heading">{t('footer.legalHeading')}</FooterHeading>
            <LegalLinks />
          </nav>
        </div>
        <div className="lp-footer-bottom">
          <BottomLine />
        </div>
      </div>
    </footer>
  );
}
