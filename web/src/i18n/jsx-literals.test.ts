import { spawnSync } from 'node:child_process';
import path from 'node:path';

const RULE = 'i18next/no-literal-string';
const REPO_ROOT = path.resolve(__dirname, '../../..');

interface LintResult {
  messages: { ruleId: string | null; message: string }[];
}

/**
 * Lints `code` as a web screen with the repository's own eslint.config.mjs, as `npx eslint` does, and returns what the
 * rule flags. The CLI runs in its own process: the plugin finds its rules through `require.extensions`, which jest lacks.
 */
function flaggedLiterals(code: string): string[] {
  const eslint = spawnSync(
    process.execPath,
    ['node_modules/eslint/bin/eslint.js', '--format', 'json', '--stdin', '--stdin-filename', 'web/src/features/fixture/fixture-page.tsx'],
    { cwd: REPO_ROOT, input: code, encoding: 'utf8' },
  );
  // 0: no errors, 1: lint errors (the fixture may have others); 2 would be a broken configuration.
  if (eslint.status !== 0 && eslint.status !== 1) throw new Error(`eslint failed: ${eslint.stderr || eslint.stdout}`);
  const [result] = JSON.parse(eslint.stdout) as LintResult[];
  return (result?.messages ?? []).filter((message) => message.ruleId === RULE).map((message) => message.message);
}

const screen = (jsx: string) => `
import { useTranslation } from 'react-i18next';
export function Screen({ count }: { count: number }) {
  const { t } = useTranslation();
  return (${jsx});
}
`;

describe('the untranslated-JSX lint check (issue 17)', () => {
  jest.setTimeout(30_000);

  it('flags English text and readable attributes written straight into JSX', () => {
    const flagged = flaggedLiterals(
      screen(`<section aria-label="Your images">
        <h1>Welcome back</h1>
        <input placeholder="Search by prompt" title="Search" />
        <img src="/a.png" alt="A lighthouse" />
        <p>{count === 1 ? 'token' : 'tokens'}</p>
      </section>`),
    );
    expect(flagged.join('\n')).toEqual(expect.stringContaining('Welcome back'));
    for (const text of ['aria-label="Your images"', 'placeholder="Search by prompt"', 'title="Search"', 'alt="A lighthouse"', "'token'"]) {
      expect(flagged.some((message) => message.includes(text))).toBe(true);
    }
  });

  it('accepts text through t(), symbols and numbers, identifiers, Intl options and attributes nobody reads', () => {
    const flagged = flaggedLiterals(
      screen(`<section aria-label={t('common.close')} className="stack" data-testid="screen">
        <h1>{t('dashboard.greeting', { name: 'Ada' })}</h1>
        <p>{count} · {'→'} 18+ …</p>
        <p>{new Intl.NumberFormat(undefined, { style: 'percent' }).format(0.5)}</p>
        <input placeholder="min_p" />
        <input type="search" placeholder={t('common.optional')} />
      </section>`),
    );
    expect(flagged).toEqual([]);
  });
});
