import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../../components/app-link';
import { BrandLink } from '../../../components/brand-link';
import { CloseIcon, MenuIcon } from '../../../components/icons/landing-icons';
import { LandingLanguagePicker } from './landing-language-picker';
import '../../../styles/kit.css';
import './landing-nav.css';

const MOBILE_MENU_ID = 'landing-mobile-menu';

/** In-page anchors of the top navigation (spec §2: features, gallery, pricing, about). */
export const LANDING_ANCHORS = [
  { href: '#features', labelKey: 'landing.nav.features' },
  { href: '#gallery', labelKey: 'landing.nav.gallery' },
  { href: '#pricing', labelKey: 'landing.nav.pricing' },
  { href: '#about', labelKey: 'landing.nav.about' },
] as const;

function AnchorLinks({ direction, onNavigate }: { direction: 'row' | 'column'; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <ul className={`lp-nav-anchors lp-nav-anchors-${direction}`}>
      {LANDING_ANCHORS.map((anchor) => (
        <li key={anchor.href}>
          <a href={anchor.href} onClick={onNavigate} className="lp-nav-anchor">
            {t(anchor.labelKey)}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Landing top bar: brand, section anchors, language, Log in and Get started; a menu button on small screens. */
export function LandingNav() {
  const { t } = useTranslation();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isMenuOpen) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isMenuOpen]);

  const close = () => setMenuOpen(false);

  return (
    <header className="lp-nav">
      <div className="lp-nav-bar">
        <BrandLink />
        <nav aria-label={t('landing.nav.label')} className="lp-nav-desktop">
          <AnchorLinks direction="row" />
        </nav>
        <div className="lp-nav-actions">
          <LandingLanguagePicker />
          <AppLink to="/signin" className="lp-btn lp-btn-ghost lp-btn-sm lp-hide-below-md">
            {t('nav.logIn')}
          </AppLink>
          <AppLink to="/signup" className="lp-btn lp-btn-solid lp-btn-sm lp-hide-below-md">
            {t('nav.getStarted')}
          </AppLink>
          <button
            ref={menuButton}
            type="button"
            className="lp-btn lp-btn-ghost lp-btn-md lp-nav-menu-button lp-hide-from-md"
            aria-label={isMenuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            aria-expanded={isMenuOpen}
            aria-controls={MOBILE_MENU_ID}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {isMenuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>
      {isMenuOpen && (
        <nav
          id={MOBILE_MENU_ID}
          aria-label={t('landing.nav.label')}
          className="lp-nav-mobile lp-hide-from-md"
          data-testid="landing-mobile-menu"
        >
          <AnchorLinks direction="column" onNavigate={close} />
          <div className="lp-nav-mobile-actions">
            <AppLink to="/signin" className="lp-btn lp-btn-outline lp-btn-md" onClick={close}>
              {t('nav.logIn')}
            </AppLink>
            <AppLink to="/signup" className="lp-btn lp-btn-solid lp-btn-md" onClick={close}>
              {t('nav.getStarted')}
            </AppLink>
          </div>
        </nav>
      )}
    </header>
  );
}
