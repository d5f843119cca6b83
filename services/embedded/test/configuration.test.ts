import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { InvalidEnvironmentError, configurationTable } from '@app/kit';
import { PLATFORM_ENVIRONMENTS } from '../src/configuration';
import { README_PATH, renderReadme } from '../src/configuration-docs';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const MAIN = path.join(ROOT, 'services', 'embedded', 'dist', 'main.js');

/** Every variable name the sources read from an environment, found by their `env.NAME` / `env['NAME']` reads. */
function variablesReadInSources(): Set<string> {
  const found = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'test', 'migrations'].includes(entry.name)) visit(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const source = fs.readFileSync(full, 'utf8');
        for (const match of source.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g))
          found.add(match[1] ?? match[2]!);
      }
    }
  };
  for (const dir of [
    'services/kit/src',
    'services/identity/src',
    'services/chat/src',
    'services/media/src',
    'gateway/src',
    'services/embedded/src',
  ]) {
    visit(path.join(ROOT, dir));
  }
  return found;
}

describe('configuration', () => {
  it("keeps the README's configuration table as the environment definitions say (npm run config:docs)", async () => {
    const readme = fs.readFileSync(README_PATH, 'utf8');
    expect(await renderReadme(readme)).toBe(readme);
  });

  it('documents every variable the sources read, each once', () => {
    const documented = PLATFORM_ENVIRONMENTS.flatMap((environment) => Object.keys(environment.variables));
    expect(new Set(documented).size).toBe(documented.length);
    expect(() => configurationTable(PLATFORM_ENVIRONMENTS)).not.toThrow();
    const undocumented = [...variablesReadInSources()].filter((name) => !documented.includes(name));
    expect(undocumented).toEqual([]);
  });

  it('names each invalid variable in one error, hides secrets, and treats blank values as unset', () => {
    const parseAll = (env: NodeJS.ProcessEnv) => PLATFORM_ENVIRONMENTS.map((environment) => environment.parse(env));
    let error: unknown;
    try {
      parseAll({ PORT: 'eighty', OPERATOR_TOKEN: 'short-secret', MEDIA_MAX_ATTEMPTS: '0', ANALYTICS_PROVIDER: 'matomo' });
    } catch (caught) {
      error = caught;
    }
    // Each environment throws its own; the launcher gathers them (assertValidEnvironment).
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    expect(() => parseAll({ PORT: 'eighty' })).toThrow('PORT must be a whole number between 0 and 65535, got "eighty"');
    expect(() => parseAll({ OPERATOR_TOKEN: 'short-secret' })).toThrow('OPERATOR_TOKEN must be at least 16 characters long (value hidden)');
    expect(() => parseAll({ OPERATOR_TOKEN: 'short-secret' })).not.toThrow(/short-secret/);
    expect(() => parseAll({ MEDIA_MAX_ATTEMPTS: '0' })).toThrow('MEDIA_MAX_ATTEMPTS must be a whole number of at least 1, got "0"');
    expect(() => parseAll({ COOKIE_SECURE: 'sometimes' })).toThrow('COOKIE_SECURE must be true or false, got "sometimes"');
    expect(() => parseAll({ DATABASE_URL: 'mysql://db' })).toThrow('DATABASE_URL must be a URL starting with postgres:// or postgresql://');
    expect(() => parseAll({ PORT: '  ', OPERATOR_TOKEN: '' })).not.toThrow();
  });

  (fs.existsSync(MAIN) ? it : it.skip)('stops the product at start with a message naming every invalid variable', () => {
    const started = spawnSync(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        DATA_DIR: 'memory://invalid-config',
        PORT: 'eighty',
        CHAT_SENDS_PER_MINUTE: 'lots',
        LOG_LEVEL: 'info',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(started.status).toBe(1);
    const output = `${started.stdout}${started.stderr}`;
    expect(output).toContain('PORT must be a whole number between 0 and 65535, got \\"eighty\\"');
    expect(output).toContain('CHAT_SENDS_PER_MINUTE must be a whole number of at least 1, got \\"lots\\"');
    expect(output).not.toContain('Ready:');
  });
});
