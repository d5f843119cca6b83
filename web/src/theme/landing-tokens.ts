import { system } from './system';

const LANDING_COLOR_VAR = /var\(\s*--lp-colors-([A-Za-z0-9-]+)\s*[,)]/g;
const TOKEN_REFERENCE = /\{([^{}]+)\}/g;

/** `['purple', 'focus', 'ring']` → every token path it could mean: `purple.focus.ring`, `purple.focusRing`, `purpleFocusRing`, …. */
function candidatePaths(segments: readonly string[]): string[] {
  if (segments.length <= 1) return segments.length ? [segments[0]!] : [];
  const [first, ...rest] = segments;
  return candidatePaths(rest).flatMap((tail) => {
    const [head, ...others] = tail.split('.');
    const camel = first + head!.charAt(0).toUpperCase() + head!.slice(1);
    return [`${first}.${tail}`, [camel, ...others].join('.')];
  });
}

function tokenPathFor(cssName: string): string {
  const byMostDots = candidatePaths(cssName.split('-')).sort((a, b) => b.split('.').length - a.split('.').length);
  const path = byMostDots.find((candidate) => system.tokens.getByName(`colors.${candidate}`));
  if (!path)
    throw new Error(`Unknown landing colour token: --lp-colors-${cssName} (no Chakra token colors.${cssName.replaceAll('-', '.')})`);
  return `colors.${path}`;
}

/** A token's dark-mode value with every `{colors.x.y}` reference followed down to its literal. */
function darkValue(tokenName: string, seen: readonly string[] = []): string {
  if (seen.includes(tokenName)) throw new Error(`Circular colour token reference: ${[...seen, tokenName].join(' → ')}`);
  const token = system.tokens.getByName(tokenName);
  if (!token) throw new Error(`Unknown colour token ${tokenName} (referenced by ${seen.at(-1) ?? 'the landing CSS'})`);
  const conditions = token.extensions.conditions as Record<string, unknown> | undefined;
  const raw = conditions ? (conditions._dark ?? conditions.base) : token.originalValue || token.value;
  if (typeof raw !== 'string' || raw === '') throw new Error(`Colour token ${tokenName} has no dark value`);
  return raw.replace(TOKEN_REFERENCE, (_, reference: string) => darkValue(reference.trim(), [...seen, tokenName]));
}

/**
 * The `:root` rule declaring every `--lp-colors-*` the landing CSS uses, each set to its Chakra token's dark value
 * (the app is dark only), so the landing gets Chakra's colours without loading Chakra. An unknown name throws.
 */
export function landingTokensCss(cssSources: readonly string[]): string {
  const names = new Set(cssSources.flatMap((source) => [...source.matchAll(LANDING_COLOR_VAR)].map((match) => match[1]!)));
  const declarations = [...names].sort().map((name) => `--lp-colors-${name}:${darkValue(tokenPathFor(name))};`);
  return `:root{${declarations.join('')}}`;
}
