import { lazy, Suspense, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getLanguage } from '../../../i18n/languages';
import type { MenuOpening } from '../../../components/language-menu';
import './landing-language-picker.css';

/** The menu with its own Chakra provider: the landing carries no UI kit until the visitor reaches for the menu. */
const loadMenuIsland = () => import('../../../components/language-menu-island');
const LanguageMenuIsland = lazy(loadMenuIsland);

/** Keys that open a menu from its button (WAI-ARIA menu button pattern). */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp']);

const TRIGGER_CLASS = 'lp-btn lp-btn-ghost lp-btn-sm lp-lang';

function ChevronDownIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
      <path d="m6 9 6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * The landing's language menu (spec §2, §4): until the visitor hovers, touches, clicks or presses a key on it, a plain
 * button; then the app's language menu (components/language-menu.tsx) with the UI kit it needs, a chunk of its own,
 * which opens as the gesture that fetched it would have opened it. Accessible name: "Language English".
 */
export function LandingLanguagePicker() {
  const { t, i18n } = useTranslation();
  const current = getLanguage(i18n.resolvedLanguage ?? i18n.language);
  const [opening, setOpening] = useState<{ openWith: MenuOpening | null; takeFocus: boolean } | undefined>();

  const label = (
    <>
      <span className="lp-sr-only">{t('language.label')}</span>
      <span aria-hidden="true" className="lp-lang-flag">
        {current.flag}
      </span>
      <span lang={current.code}>{current.name}</span>
      <ChevronDownIcon />
    </>
  );
  const prefetch = () => void loadMenuIsland().catch(() => undefined);
  const open = (openWith: MenuOpening, trigger: HTMLButtonElement) =>
    setOpening({ openWith, takeFocus: document.activeElement === trigger });
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!OPENING_KEYS.has(event.key)) return;
    event.preventDefault();
    open('keyboard', event.currentTarget);
  };

  const placeholder = (
    <button
      type="button"
      className={TRIGGER_CLASS}
      aria-haspopup="menu"
      aria-expanded={false}
      data-testid="language-picker"
      onPointerEnter={prefetch}
      onTouchStart={prefetch}
      onClick={(event) => open('pointer', event.currentTarget)}
      onKeyDown={onKeyDown}
    >
      {label}
    </button>
  );
  if (!opening) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LanguageMenuIsland
        current={current}
        label={label}
        buttonProps={{ className: TRIGGER_CLASS }}
        openWith={opening.openWith}
        takeFocus={opening.takeFocus}
      />
    </Suspense>
  );
}
