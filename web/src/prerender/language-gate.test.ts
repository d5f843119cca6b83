import { detectLanguage } from '../i18n/detect-language';
import { languageGateScript } from './language-gate';
import { STATIC_LANDING_OFF_CLASS } from './static-landing';

/** Runs the gate as a browser would, against a saved language and the browser's list; true when it hides the English landing. */
function hidesEnglishLanding(stored: string | null, browserLanguages: string[], { storageBlocked = false } = {}): boolean {
  const classes = new Set<string>();
  const localStorage = {
    getItem: () => {
      if (storageBlocked) throw new Error('SecurityError');
      return stored;
    },
  };
  const navigator = { languages: browserLanguages, language: browserLanguages[0] ?? '' };
  const document = { documentElement: { classList: { add: (name: string) => classes.add(name) } } };
  new Function('localStorage', 'navigator', 'document', languageGateScript())(localStorage, navigator, document);
  return classes.has(STATIC_LANDING_OFF_CLASS);
}

describe('the language gate in front of the pre-rendered landing', () => {
  it.each<[string | null, string[]]>([
    [null, ['en-US', 'en']],
    [null, []],
    [null, ['it-IT', 'en']],
    [null, ['fr-FR', 'en']],
    [null, ['it', 'pt-BR']],
    [null, ['EN-gb', 'de']],
    ['de', ['en-US']],
    ['en', ['fr-FR']],
    ['xx', ['ko-KR']],
    ['xx', ['it-IT']],
    [null, ['zh_Hant_TW']],
  ])('decides as the app does: saved %p, browser %p', (stored, browserLanguages) => {
    const startsInEnglish = detectLanguage({ stored, browserLanguages }) === 'en';
    expect(hidesEnglishLanding(stored, browserLanguages)).toBe(!startsInEnglish);
  });

  it('falls back to the browser languages when storage is blocked', () => {
    expect(hidesEnglishLanding('en', ['es-ES'], { storageBlocked: true })).toBe(true);
    expect(hidesEnglishLanding('de', ['en-US'], { storageBlocked: true })).toBe(false);
  });
});
