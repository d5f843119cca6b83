import { renderToStaticMarkup } from 'react-dom/server';
import { Trans } from 'react-i18next';
import { i18n } from './i18n';
import en from './locales/en.json';

type Tree = { [key: string]: string | Tree };

function values(tree: Tree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : values(value)));
}

// The markup parser treats these as empty elements, so <link>text</link> would lose its text.
const VOID_ELEMENTS = ['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr'];

describe('Trans markup in the catalogs', () => {
  it('renders component tags around their translated text', () => {
    const terms = renderToStaticMarkup(
      <Trans i18n={i18n} i18nKey="auth.signUp.acceptTerms" values={{ age: 18 }} components={{ anchor: <a href="/tos" /> }} />,
    );
    expect(terms).toBe('I am 18 or older and I accept the <a href="/tos">Terms of Service</a>');

    const balance = renderToStaticMarkup(
      <Trans
        i18n={i18n}
        i18nKey="dashboard.balance"
        values={{ tokens: 10 }}
        components={{ balance: <span data-testid="token-balance" /> }}
      />,
    );
    expect(balance).toBe('<span data-testid="token-balance">10</span> tokens');
  });

  it('uses no HTML void element names as tags', () => {
    const tags = values(en as Tree).flatMap((text) => [...text.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((match) => match[1]!.toLowerCase()));
    expect(tags.filter((tag) => VOID_ELEMENTS.includes(tag))).toEqual([]);
  });
});
