import { landingTokensCss } from './landing-tokens';
import { system } from './system';

/** Parses `:root{--a:x;--b:y;}` back into a map, keeping declaration order. */
function declarations(css: string): [string, string][] {
  const body = /^:root\{(.*)\}$/.exec(css)?.[1];
  if (body === undefined) throw new Error(`not a :root rule: ${css}`);
  return body
    .split(';')
    .filter(Boolean)
    .map((declaration) => {
      const [name, value] = declaration.split(':');
      return [name!, value!];
    });
}

const literal = (name: string) => system.tokens.getByName(name)!.originalValue as string;

describe('landingTokensCss', () => {
  it('resolves semantic tokens to their dark literals', () => {
    const css = landingTokensCss([
      '.a { color: var(--lp-colors-fg-muted); background: var(--lp-colors-purple-solid) }',
      '.b { background: color-mix(in srgb, var(--lp-colors-bg) 70%, transparent) }',
    ]);
    expect(Object.fromEntries(declarations(css))).toEqual({
      '--lp-colors-bg': literal('colors.black'),
      '--lp-colors-fg-muted': literal('colors.gray.400'),
      '--lp-colors-purple-solid': literal('colors.purple.600'),
    });
    expect(literal('colors.gray.400')).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('maps dashes to camel-cased segments when the plain path does not exist', () => {
    const css = landingTokensCss(['.a { outline-color: var(--lp-colors-purple-focus-ring); color: var(--lp-colors-purple-300) }']);
    expect(Object.fromEntries(declarations(css))).toEqual({
      '--lp-colors-purple-300': literal('colors.purple.300'),
      '--lp-colors-purple-focus-ring': literal('colors.purple.500'),
    });
  });

  it('lists only the tokens used, once each, sorted by name', () => {
    const css = landingTokensCss(['.a { color: var(--lp-colors-fg) }', '.b { color: var(--lp-colors-border); fill: var(--lp-colors-fg) }']);
    expect(declarations(css).map(([name]) => name)).toEqual(['--lp-colors-border', '--lp-colors-fg']);
    expect(landingTokensCss(['.a { color: red }'])).toBe(':root{}');
  });

  it('throws on an unknown name, naming it', () => {
    expect(() => landingTokensCss(['.a { color: var(--lp-colors-fg-mutd) }'])).toThrow(/--lp-colors-fg-mutd/);
  });
});
