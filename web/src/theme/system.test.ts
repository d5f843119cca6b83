import fs from 'node:fs';
import path from 'node:path';
import { defaultSystem } from '@chakra-ui/react';
import { system } from './system';

/**
 * The app's Chakra system carries only some of the default recipes (system.ts). A component whose
 * recipe is missing renders unstyled without any error, so this checks, from Chakra's own sources,
 * that every component imported anywhere in web/src has all of its default recipes in the system.
 */

const SRC_DIR = path.resolve(__dirname, '..');
const CHAKRA_ESM = path.join(path.dirname(require.resolve('@chakra-ui/react/package.json')), 'dist', 'esm');
const COMPONENTS_DIR = path.join(CHAKRA_ESM, 'components');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Value names imported from '@chakra-ui/react' (type-only imports skipped), per file. */
function chakraImports(): { file: string; name: string }[] {
  const found: { file: string; name: string }[] = [];
  for (const file of sourceFiles(SRC_DIR)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'@chakra-ui\/react'/g)) {
      if (match[1]) continue;
      for (const raw of match[2]!.split(',')) {
        const spec = raw.trim();
        if (!spec || spec.startsWith('type ')) continue;
        found.push({ file: path.relative(SRC_DIR, file), name: spec.split(/\s+as\s+/)[0]!.trim() });
      }
    }
  }
  return found;
}

/** Chakra's export name → the component directory it comes from (undefined for non-components). */
function exportDirectories(): Map<string, string> {
  const index = fs.readFileSync(path.join(CHAKRA_ESM, 'index.js'), 'utf8');
  const dirs = new Map<string, string>();
  const namespaces = new Map<string, string>();
  for (const match of index.matchAll(/import \* as (\S+) from '\.\/components\/([^/]+)\//g)) namespaces.set(match[1]!, match[2]!);
  for (const match of index.matchAll(/export \{([^}]*)\}(?: from '\.\/components\/([^/]+)\/[^']*')?/g)) {
    for (const raw of match[1]!.split(',')) {
      const [local, exported = local] = raw
        .trim()
        .split(/\s+as\s+/)
        .map((part) => part.trim());
      if (!local) continue;
      const dir = match[2] ?? namespaces.get(local);
      if (dir) dirs.set(exported!, dir);
    }
  }
  return dirs;
}

/** Recipe keys a component directory uses, following its imports of other component directories. */
function recipeKeys(dir: string, seen = new Set<string>()): Set<string> {
  const keys = new Set<string>();
  if (seen.has(dir)) return keys;
  seen.add(dir);
  const full = path.join(COMPONENTS_DIR, dir);
  if (!fs.existsSync(full)) return keys;
  for (const file of fs.readdirSync(full).filter((name) => name.endsWith('.js'))) {
    const text = fs.readFileSync(path.join(full, file), 'utf8');
    for (const match of text.matchAll(/key: "([A-Za-z]+)"/g)) keys.add(match[1]!);
    for (const match of text.matchAll(/from '\.\.\/([^/]+)\//g)) recipeKeys(match[1]!, seen).forEach((key) => keys.add(key));
  }
  return keys;
}

const isDefaultRecipe = (key: string) => defaultSystem.isRecipe(key) || defaultSystem.isSlotRecipe(key);
const hasRecipe = (key: string) => system.isRecipe(key) || system.isSlotRecipe(key);

describe('the Chakra system (theme/system.ts)', () => {
  it('has the recipes of every component the app imports', () => {
    const dirs = exportDirectories();
    const imports = chakraImports();
    expect(imports.length).toBeGreaterThan(50);
    const missing = imports.flatMap(({ file, name }) => {
      const dir = dirs.get(name);
      if (!dir) return [];
      return [...recipeKeys(dir)].filter((key) => isDefaultRecipe(key) && !hasRecipe(key)).map((key) => `${file}: ${name} needs "${key}"`);
    });
    // Add each one to theme/system.ts (its recipe is exported by '@chakra-ui/react/theme').
    expect([...new Set(missing)]).toEqual([]);
  });

  it('finds the recipes of known components', () => {
    const dirs = exportDirectories();
    expect(recipeKeys(dirs.get('Button')!)).toEqual(new Set(['button', 'spinner']));
    expect(recipeKeys(dirs.get('Menu')!)).toContain('menu');
    expect(dirs.get('Box')).toBe('box');
  });

  it('imports Chakra only from the package root, where the check above looks', () => {
    const subpathImports = sourceFiles(SRC_DIR).filter((file) => /from '@chakra-ui\/react\//.test(fs.readFileSync(file, 'utf8')));
    expect(subpathImports.map((file) => path.relative(SRC_DIR, file))).toEqual(['theme/system.ts']);
  });

  it('keeps the default theme otherwise: tokens, conditions and global styles', () => {
    expect(system.tokens.allTokens.map((token) => token.name)).toEqual(defaultSystem.tokens.allTokens.map((token) => token.name));
    expect(Object.keys(system.conditions.breakpoints)).toEqual(Object.keys(defaultSystem.conditions.breakpoints));
    expect(system.getGlobalCss()).toEqual(defaultSystem.getGlobalCss());
    expect(system.getPreflightCss()).toEqual(defaultSystem.getPreflightCss());
    for (const key of ['button', 'heading', 'link']) expect(system.getRecipe(key)).toEqual(defaultSystem.getRecipe(key));
    for (const key of ['menu', 'toast', 'dialog']) expect(system.getSlotRecipe(key)).toEqual(defaultSystem.getSlotRecipe(key));
  });
});
