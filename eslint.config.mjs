import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Options of i18next/no-literal-string (issue 17, decision 041): a visible literal outside t() fails the lint; web/src/i18n/jsx-literals.test.ts lints fixtures with them. */
const JSX_LITERAL_OPTIONS = {
  mode: 'jsx-only',
  'jsx-attributes': { include: ['aria-label', 'aria-description', 'title', 'placeholder', 'alt', 'label'] },
  // Option values of Intl formatters written inline in JSX (`{ style: 'percent' }`) are not text.
  'object-properties': {
    exclude: [
      '[A-Z_-]+',
      'style',
      'unit',
      'unitDisplay',
      'currency',
      'currencyDisplay',
      'notation',
      'compactDisplay',
      'signDisplay',
      'dateStyle',
      'timeStyle',
      'timeZone',
      'year',
      'month',
      'weekday',
      'day',
      'hour',
      'minute',
      'second',
      'numeric',
      'type',
    ],
  },
  words: {
    exclude: [
      // Digits, punctuation and symbols only (·, →, ×, 18+, …).
      /^[\p{N}\p{P}\p{S}\s]+$/u,
      // Identifiers, not prose: camelCase keys (`choiceA`), snake_case parameter names (`min_p`), CONSTANTS and letters.
      /^[a-z]+[A-Z][A-Za-z0-9]*$/,
      /^[a-z0-9]+(_[a-z0-9]+)+$/,
      /^[A-Z_-]+$/,
      // The default brand name (BRAND_NAME) is the same in every language.
      /^Velvet AI$/,
    ],
  },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.test-results/**', 'web/src/gql/**', 'docs/examples/*/gql/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Every user-visible text in the web app goes through t() (issue 17): JSX text and the attributes people read or hear.
    files: ['web/src/**/*.tsx'],
    ignores: ['web/src/**/*.test.tsx'],
    plugins: { i18next },
    rules: { 'i18next/no-literal-string': ['error', JSX_LITERAL_OPTIONS] },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: [
      '**/test/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      'web/e2e/**',
      'bench/**',
      '**/main.ts',
      '**/emit-schema.ts',
      '**/bin/**',
      '.ci/**',
    ],
    rules: { 'no-console': 'off' },
  },
);
