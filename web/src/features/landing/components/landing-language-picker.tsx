import { useTranslation } from 'react-i18next';
import { getLanguage } from '../../../i18n/languages';
import { ChevronDownIcon, useLanguageMenuOnDemand } from '../../../components/language-picker-parts';
import { onDemand } from '../../../lib/on-demand';
import '../../../styles/kit.css';
import './landing-language-picker.css';

/** The app's language menu with its own Chakra provider: the landing carries no UI kit until the visitor reaches for the menu. */
const languageMenuIsland = onDemand(() => import('../../../components/language-menu-island'));

const TRIGGER_CLASS = 'lp-btn lp-btn-ghost lp-btn-sm lp-lang';

/**
 * The landing's language menu (spec §2, §4): a plain button until the visitor hovers, touches, clicks or presses a key on
 * it, then the app's language menu (components/language-menu.tsx), which opens as the gesture that fetched it would have
 * opened it. Accessible name: "Language English".
 */
export function LandingLanguagePicker() {
  const { t, i18n } = useTranslation();
  const current = getLanguage(i18n.resolvedLanguage ?? i18n.language);
  const { loaded: menu, openWith, buttonProps: pickerProps } = useLanguageMenuOnDemand(languageMenuIsland);

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
  if (menu) {
    return (
      <menu.Menu
        current={current}
        label={label}
        buttonProps={{ className: TRIGGER_CLASS }}
        openWith={openWith}
        takeFocus={menu.takeFocus}
      />
    );
  }
  return (
    <button type="button" className={TRIGGER_CLASS} {...pickerProps}>
      {label}
    </button>
  );
}
