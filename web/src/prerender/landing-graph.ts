import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const RESOLVED_EXTENSIONS = ['', '.tsx', '.ts', '/index.tsx', '/index.ts'];

/** `import … from '…'`, `import '…'` and `export … from '…'`: static imports only (`import('…')` is a chunk of its own). */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

function resolveRelative(fromFile: string, specifier: string): string {
  const base = resolve(dirname(fromFile), specifier);
  for (const extension of RESOLVED_EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`landing-graph: cannot resolve "${specifier}" from ${fromFile}`);
}

/**
 * What the landing page loads before any interaction: the source files reachable from `entry` (the landing's own start,
 * features/landing/landing-start.tsx, which main.tsx imports on "/" for visitors) through static imports
 * (type-only imports left out: they vanish in the build), and the packages they import. The build groups these files
 * into the landing's chunk (vite.config.ts), and landing-graph.test.ts keeps the UI kit and the router out of them.
 */
export function landingGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!/\.tsx?$/.test(file)) return;
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(STATIC_IMPORT)) {
      const statement = match[0];
      const specifier = match[1]!;
      if (/^\s*(?:import|export)\s+type\s/.test(statement)) continue;
      // JSON stays out: the English catalog, imported for unit tests, is cut down to the first paint's keys by the build.
      if (specifier.startsWith('.')) {
        if (!specifier.endsWith('.json')) visit(resolveRelative(file, specifier));
      } else packages.add(specifier);
    }
  };
  visit(entry);
  return { files, packages };
}
