import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCharacterCard } from '../cards/character-card';
import { displayNameOf, expandMacros } from './macros';

const names = { char: 'Luna', user: 'Mara' };
const readCard = (file: string) => parseCharacterCard(readFileSync(join(__dirname, '../../test/fixtures/cards', file)));

describe('expandMacros', () => {
  it('replaces {{char}} / {{user}} and the legacy <BOT> / <CHAR> / <USER>, whatever their case', () => {
    expect(expandMacros('{{char}} smiles at {{user}}. {{CHAR}} and {{User}}.', names)).toBe('Luna smiles at Mara. Luna and Mara.');
    expect(expandMacros('<USER>: hi\n<BOT>: hello, <user>. <char> waves.', names)).toBe('Mara: hi\nLuna: hello, Mara. Luna waves.');
  });

  it('inserts names literally, never as replacement patterns nor as macros to expand again', () => {
    expect(expandMacros('Hi {{user}} and <USER>', { char: 'Luna', user: "$& $1 $' {{char}}" })).toBe(
      "Hi $& $1 $' {{char}} and $& $1 $' {{char}}",
    );
    expect(expandMacros('{{char}}', { char: '{{random:a,b}}', user: 'x' })).toBe('{{random:a,b}}');
  });

  it('puts the overridden default prompt in {{original}}, and nothing where there is none', () => {
    const original = 'You are a helpful roleplay partner.';
    expect(expandMacros('{{original}} Always answer as {{char}}.', { ...names, original })).toBe(
      'You are a helpful roleplay partner. Always answer as Luna.',
    );
    expect(expandMacros('Before {{original}}after', names)).toBe('Before after');
  });

  it('handles {{newline}}, {{trim}} and {{noop}} as SillyTavern does', () => {
    expect(expandMacros('A{{newline}}B{{noop}}', names)).toBe('A\nB');
    expect(expandMacros('First line\n\n{{trim}}\n\nsecond line', names)).toBe('First linesecond line');
    expect(expandMacros('Keep\n{{newline}}{{trim}}\nend', names)).toBe('Keepend');
  });

  it('drops comments and hidden keys, which must never reach the model (V3)', () => {
    expect(expandMacros('Luna{{// the author explains: keep her aloof}} is aloof.', names)).toBe('Luna is aloof.');
    expect(expandMacros('a{{comment: shown only to readers}}b{{hidden_key: moonstone}}c', names)).toBe('abc');
    expect(expandMacros('{{//multi\nline {{char}}}}x', names)).toBe('x');
  });

  it('reverses, nesting macros inside', () => {
    expect(expandMacros('{{reverse:Hello}}', names)).toBe('olleH');
    expect(expandMacros('{{reverse:{{char}}}}', names)).toBe('anuL');
  });

  it('picks a {{random}} item per call, honouring escaped commas and the :: form', () => {
    expect(expandMacros('{{random:Hello,Hi,Hey}}', { ...names, random: () => 0.5 })).toBe('Hi');
    expect(expandMacros('{{random: red , green\\, bright , blue }}', { ...names, random: () => 0.4 })).toBe('green, bright');
    expect(expandMacros('{{random::a, b::c}}', { ...names, random: () => 0 })).toBe('a, b');
    expect(expandMacros('{{random:{{char}},{{user}}}}', { ...names, random: () => 0.99 })).toBe('Mara');
  });

  it('keeps a {{pick}} the same for the same text and seed, so a prompt does not change between turns', () => {
    const text = 'Weather: {{pick:rain,snow,fog,sun,wind,hail,mist,storm}}';
    const seeds = ['conversation-1', 'conversation-2', 'conversation-3', 'conversation-4', 'conversation-5'];
    const picks = seeds.map((pickSeed) => expandMacros(text, { ...names, pickSeed }));
    expect(seeds.map((pickSeed) => expandMacros(text, { ...names, pickSeed }))).toEqual(picks);
    expect(new Set(picks).size).toBeGreaterThan(1);
    for (const pick of picks) expect(pick).toMatch(/^Weather: (rain|snow|fog|sun|wind|hail|mist|storm)$/);
  });

  it('rolls dice in range, and leaves nothing for a formula it cannot roll', () => {
    expect(expandMacros('{{roll:6}}', { ...names, random: () => 0.999 })).toBe('6');
    expect(expandMacros('{{roll:d20}}', { ...names, random: () => 0 })).toBe('1');
    expect(expandMacros('{{roll 2d6+3}}', { ...names, random: () => 0.5 })).toBe('11');
    expect(expandMacros('[{{roll:lots}}] [{{roll:0}}] [{{roll:1000d6}}]', names)).toBe('[] [] []');
  });

  it('leaves unknown macros and stray braces as written', () => {
    expect(expandMacros('{{time}} {{getvar::mood}} {{ {{char}} }} }}{{', names)).toBe('{{time}} {{getvar::mood}} {{ Luna }} }}{{');
    expect(expandMacros('{{{char}}}', names)).toBe('{Luna}');
  });

  it('stays linear on hostile input: deep nesting and thousands of unmatched braces', () => {
    const deep = `${'{{reverse:'.repeat(5000)}x${'}}'.repeat(5000)}`;
    expect(() => expandMacros(deep, names)).not.toThrow();
    const started = performance.now();
    expandMacros('{{'.repeat(30_000) + '{{char}}', names);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('displayNameOf', () => {
  it("uses a V3 card's nickname for {{char}}", () => {
    const { data } = readCard('v3-risuai.json');
    expect(data.name).toBe('Seo-yeon Han');
    expect(displayNameOf(data, 'Character')).toBe('DJ Yeon');
    expect(expandMacros('{{char}} spins a record.', { char: displayNameOf(data, 'Character'), user: 'Mara' })).toBe(
      'DJ Yeon spins a record.',
    );
  });

  it('falls back to the name, then to the given name (stored card fields have no name)', () => {
    const { data } = readCard('v2-sillytavern.json');
    expect(displayNameOf(data, 'Character')).toBe('Elowen Ashgrove');
    expect(displayNameOf({ extra: { nickname: '  ' } }, 'Row name')).toBe('Row name');
    expect(displayNameOf(null, 'Row name')).toBe('Row name');
  });
});
