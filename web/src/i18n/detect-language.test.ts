import { detectLanguage, readBrowserLanguages } from './detect-language';

describe('detectLanguage', () => {
  it('uses the saved language when it is one of the nine', () => {
    expect(detectLanguage({ stored: 'de', browserLanguages: ['fr-FR'] })).toBe('de');
    expect(detectLanguage({ stored: 'en', browserLanguages: ['fr-FR'] })).toBe('en');
  });

  it('ignores a saved value that is not an offered language', () => {
    expect(detectLanguage({ stored: 'it', browserLanguages: ['ko-KR'] })).toBe('ko');
    expect(detectLanguage({ stored: 'DE', browserLanguages: [] })).toBe('en');
    expect(detectLanguage({ stored: '', browserLanguages: ['es'] })).toBe('es');
  });

  it('matches the browser language by its prefix', () => {
    expect(detectLanguage({ browserLanguages: ['pt-BR'] })).toBe('pt');
    expect(detectLanguage({ browserLanguages: ['zh-Hant-TW'] })).toBe('zh');
    expect(detectLanguage({ browserLanguages: ['FR_ca'] })).toBe('fr');
  });

  it('takes the first browser preference that is offered', () => {
    expect(detectLanguage({ browserLanguages: ['it-IT', 'de-CH', 'fr'] })).toBe('de');
    expect(detectLanguage({ browserLanguages: ['en-US', 'de'] })).toBe('en');
  });

  it('falls back to English', () => {
    expect(detectLanguage({})).toBe('en');
    expect(detectLanguage({ stored: null, browserLanguages: ['it-IT', 'ja'] })).toBe('en');
  });
});

describe('readBrowserLanguages', () => {
  it('prefers navigator.languages and falls back to navigator.language', () => {
    expect(readBrowserLanguages({ languages: ['fr-FR', 'en'], language: 'fr-FR' })).toEqual(['fr-FR', 'en']);
    expect(readBrowserLanguages({ languages: [], language: 'ru-RU' })).toEqual(['ru-RU']);
    expect(readBrowserLanguages(undefined)).toEqual([]);
  });
});
