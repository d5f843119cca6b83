/** One runner for every level: unit tests beside the code, integration tests per package, browser tests in web/e2e. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper: {
    '^@app/schema$': '<rootDir>/schema/src',
    '^@app/kit$': '<rootDir>/services/kit/src',
    '^@app/policy$': '<rootDir>/services/policy/src',
    '^@app/identity$': '<rootDir>/services/identity/src',
    '^@app/chat$': '<rootDir>/services/chat/src',
    '^@app/media$': '<rootDir>/services/media/src',
    '^@app/gateway$': '<rootDir>/gateway/src',
    '^@app/embedded$': '<rootDir>/services/embedded/src',
    '\\.css$': '<rootDir>/web/test/style-stub.js',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // ESM-only dependencies are compiled to CommonJS like the sources.
  transformIgnorePatterns: ['/node_modules/(?!thumbhash/)'],
  setupFiles: ['<rootDir>/services/kit/test/jest-env.js'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{schema,services,gateway,web}/**/src/**/*.test.{ts,tsx}'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{services,gateway}/**/test/**/*.test.ts', '<rootDir>/bench/**/*.test.ts', '<rootDir>/docker/**/*.test.ts'],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/web/e2e/**/*.test.ts'] },
  ],
};
