import { LANGUAGE_STORAGE_KEY, LANGUAGES } from '../i18n/languages';
import { STATIC_LANDING_OFF_CLASS } from './static-landing';

/**
 * A classic script for <head> (the CSP allows no inline script) that runs before the first paint: when the visitor's
 * language, decided as src/i18n/detect-language.ts does (saved choice, else the first offered browser language, else
 * English), is not English, it marks <html> so the pre-rendered English landing stays hidden.
 */
export function languageGateScript(): string {
  const codes = JSON.stringify(LANGUAGES.map((language) => language.code));
  const storageKey = JSON.stringify(LANGUAGE_STORAGE_KEY);
  return `(function () {
  var offered = ${codes}, language = null;
  try { language = localStorage.getItem(${storageKey}); } catch (e) {}
  if (offered.indexOf(language) < 0) {
    language = 'en';
    var browser = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ''];
    for (var i = 0; i < browser.length; i++) {
      var primary = String(browser[i]).trim().toLowerCase().split(/[-_]/)[0];
      if (offered.indexOf(primary) >= 0) { language = primary; break; }
    }
  }
  if (language !== 'en') document.documentElement.classList.add('${STATIC_LANDING_OFF_CLASS}');
})();
`;
}
