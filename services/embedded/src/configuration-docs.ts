/**
 * `npm run config:docs`: writes the README's configuration table from the environment definitions every process
 * parses (services/embedded/src/configuration.ts), formatted as prettier formats the rest of the README. A test
 * (services/embedded/test/configuration.test.ts) fails when the README and the definitions disagree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { configurationTable, withConfigurationTable } from '@app/kit';
import { PLATFORM_ENVIRONMENTS } from './configuration';

export const README_PATH = path.resolve(__dirname, '..', '..', '..', 'README.md');

/** The README as it should be: `readme` with its configuration table regenerated and the file formatted. */
export async function renderReadme(readme: string): Promise<string> {
  // prettier is a development tool: loaded only by this script and its test, never by the running product.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(README_PATH)) ?? {};
  return prettier.format(withConfigurationTable(readme, configurationTable(PLATFORM_ENVIRONMENTS)), { ...options, parser: 'markdown' });
}

if (require.main === module) {
  void (async () => {
    const readme = fs.readFileSync(README_PATH, 'utf8');
    const rendered = await renderReadme(readme);
    if (rendered === readme) process.stdout.write('README.md configuration table is up to date\n');
    else {
      fs.writeFileSync(README_PATH, rendered);
      process.stdout.write('Wrote the configuration table to README.md\n');
    }
  })();
}
