import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import {
  CARD_LIMITS,
  CardError,
  type CharacterCardData,
  MAX_CARD_BYTES,
  cardToJson,
  cardToPng,
  defaultPortraitPng,
  parseCharacterCard,
} from '../src/cards/character-card';
import { crc32, encodeChunk, stripPngMetadata } from '../src/cards/png-chunks';
import { FIXTURE_DIR, buildPngFixtures, chunk, crc32Bitwise, pngWith, readJsonFixture, tEXt } from './fixtures/cards/make-fixtures';

const fixture = (name: string) => readFileSync(join(FIXTURE_DIR, name));
const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const INVALID = 'This file is not a valid character card.';
const NO_CARD = 'This PNG has no character card data.';
const NO_NAME = 'The card has no character name.';
const DAMAGED_CARD = 'The character data in this PNG is damaged.';
const DAMAGED_PNG = 'This PNG is damaged and cannot be read.';

const V2_KEYS = [
  'name',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'creator_notes',
  'system_prompt',
  'post_history_instructions',
  'alternate_greetings',
  'character_book',
  'tags',
  'creator',
  'character_version',
  'extensions',
];
const V3_ONLY = [
  'nickname',
  'creator_notes_multilingual',
  'source',
  'group_only_greetings',
  'creation_date',
  'modification_date',
  'assets',
];

/** What a well-formed V2/V3 `data` object should parse to, written out independently of the codec. */
function expectedData(data: Record<string, unknown>): CharacterCardData {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!V2_KEYS.includes(key)) extra[key] = value;
  extra.group_only_greetings ??= [];
  const out: CharacterCardData = {
    name: data.name as string,
    description: data.description as string,
    personality: data.personality as string,
    scenario: data.scenario as string,
    first_mes: data.first_mes as string,
    mes_example: data.mes_example as string,
    creator_notes: data.creator_notes as string,
    system_prompt: data.system_prompt as string,
    post_history_instructions: data.post_history_instructions as string,
    alternate_greetings: data.alternate_greetings as string[],
    tags: data.tags as string[],
    creator: data.creator as string,
    character_version: data.character_version as string,
    extensions: data.extensions as Record<string, unknown>,
    extra,
  };
  if (data.character_book !== undefined) out.character_book = data.character_book;
  return out;
}

/** Byte equality without jest's element-by-element diff (slow on image-sized buffers). */
function expectSameBytes(actual: Buffer | null, expected: Buffer): void {
  expect(actual).not.toBeNull();
  const a = actual as Buffer;
  if (a.equals(expected)) return;
  let at = 0;
  while (at < a.length && at < expected.length && a[at] === expected[at]) at++;
  throw new Error(`Buffers differ: lengths ${a.length} and ${expected.length}, first difference at byte ${at}`);
}

function expectCardError(run: () => unknown, message: string | RegExp): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CardError);
  if (typeof message === 'string') expect((caught as Error).message).toBe(message);
  else expect((caught as Error).message).toMatch(message);
}

interface RawChunk {
  type: string;
  data: Buffer;
}

/** An independent PNG structure check: signature, IHDR first, IEND last (nothing after), every CRC right. */
function validPngChunks(png: Buffer): RawChunk[] {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: RawChunk[] = [];
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32Bitwise(png.subarray(offset + 4, offset + 8 + length)));
    chunks.push({ type, data });
    offset += 12 + length;
  }
  expect(offset).toBe(png.length);
  expect(chunks[0].type).toBe('IHDR');
  expect(chunks[chunks.length - 1].type).toBe('IEND');
  expect(chunks.filter((c) => c.type === 'IEND')).toHaveLength(1);
  return chunks;
}

function textChunks(chunks: RawChunk[]): { keyword: string; text: string }[] {
  return chunks
    .filter((c) => c.type === 'tEXt')
    .map((c) => {
      const nul = c.data.indexOf(0);
      return { keyword: c.data.toString('latin1', 0, nul), text: c.data.toString('latin1', nul + 1) };
    });
}

const v1Raw = JSON.parse(readJsonFixture('v1-tavernai.json')) as Record<string, string>;
const v2Raw = JSON.parse(readJsonFixture('v2-sillytavern.json')) as Record<string, unknown> & { data: Record<string, unknown> };
const v3Raw = JSON.parse(readJsonFixture('v3-risuai.json')) as Record<string, unknown> & { data: Record<string, unknown> };

describe('parseCharacterCard: fixtures', () => {
  it('reads a TavernAI V1 JSON card, dropping TavernAI-local fields', () => {
    const card = parseCharacterCard(fixture('v1-tavernai.json'));
    expect(card.spec).toBe('v1');
    expect(card.image).toBeNull();
    expect(card.data).toStrictEqual({
      name: 'Captain Mira Vance',
      description: v1Raw.description,
      personality: v1Raw.personality,
      scenario: v1Raw.scenario,
      first_mes: v1Raw.first_mes,
      mes_example: v1Raw.mes_example,
      creator_notes: '',
      system_prompt: '',
      post_history_instructions: '',
      alternate_greetings: [],
      tags: [],
      creator: '',
      character_version: '',
      extensions: {},
      extra: { group_only_greetings: [] },
    });
  });

  it('reads a SillyTavern V2 JSON export: data wins over the mirrored top level, extensions and lorebook verbatim', () => {
    const card = parseCharacterCard(fixture('v2-sillytavern.json'));
    expect(card.spec).toBe('v2');
    expect(card.image).toBeNull();
    expect(card.data).toStrictEqual(expectedData(v2Raw.data));
    expect(card.data.description).toMatch(/^Elowen is a 29-year-old botanist/);
    expect(card.data.creator_notes).toBe(v2Raw.data.creator_notes);
    expect(card.data.extensions).toEqual({
      talkativeness: '0.5',
      fav: false,
      world: 'Eldoria',
      depth_prompt: { prompt: '[Elowen never harms a living plant.]', depth: 4, role: 'system' },
      regex_scripts: (v2Raw.data.extensions as Record<string, unknown>).regex_scripts,
      x_moss_studio: { palette: ['#2f4f2f', '#9acd32'], layout: { columns: 2, compact: true } },
    });
    expect((card.data.character_book as { entries: unknown[] }).entries).toHaveLength(2);
    expect(card.data.extra).toEqual({ group_only_greetings: [] });
  });

  it('reads a RisuAI V3 JSON card with every V3-only field in extra', () => {
    const card = parseCharacterCard(fixture('v3-risuai.json'));
    expect(card.spec).toBe('v3');
    expect(card.data).toStrictEqual(expectedData(v3Raw.data));
    expect(card.data.extra).toEqual({
      nickname: 'DJ Yeon',
      creator_notes_multilingual: v3Raw.data.creator_notes_multilingual,
      source: ['https://realm.risuai.net/character/3f0c9b5e-midnight-harbour'],
      group_only_greetings: ['"Two callers at once? Busy night. Who\'s first?"'],
      creation_date: 1714521600,
      modification_date: 1717200000,
      assets: v3Raw.data.assets,
    });
    expect((card.data.extensions.risuai as Record<string, unknown>).defaultVariables).toBe('mood=calm');
  });

  it('reads a V2 card from a PNG chara chunk and returns the image without it, byte for byte', () => {
    const card = parseCharacterCard(fixture('v2-chara.png'));
    expect(card.spec).toBe('v2');
    expect(card.data).toStrictEqual(parseCharacterCard(fixture('v2-sillytavern.json')).data);
    expectSameBytes(card.image, fixture('no-card.png'));
  });

  it('prefers ccv3 over chara when a PNG has both', () => {
    const card = parseCharacterCard(fixture('v3-both.png'));
    expect(card.spec).toBe('v3');
    expect(card.data).toStrictEqual(parseCharacterCard(fixture('v3-risuai.json')).data);
    expect(card.data.creator_notes).not.toMatch(/loaded as a Character Card V2/);
    expectSameBytes(card.image, fixture('no-card.png'));
  });

  it('goes by the JSON spec field, not the chunk name (a V3 card inside chara)', () => {
    const card = parseCharacterCard(fixture('chara-v3-spec.png'));
    expect(card.spec).toBe('v3');
    expect(card.data).toStrictEqual(parseCharacterCard(fixture('v3-risuai.json')).data);
  });

  it('reads compressed iTXt and zTXt card chunks', () => {
    const itxt = parseCharacterCard(fixture('itxt-ccv3.png'));
    expect(itxt.spec).toBe('v3');
    expect(itxt.data).toStrictEqual(parseCharacterCard(fixture('v3-risuai.json')).data);
    expectSameBytes(itxt.image, fixture('no-card.png'));
    const ztxt = parseCharacterCard(fixture('ztxt-chara.png'));
    expect(ztxt.spec).toBe('v2');
    expect(ztxt.data).toStrictEqual(parseCharacterCard(fixture('v2-sillytavern.json')).data);
    expectSameBytes(ztxt.image, fixture('no-card.png'));
  });

  it('rejects a PNG without card chunks', () => {
    expectCardError(() => parseCharacterCard(fixture('no-card.png')), NO_CARD);
  });

  it('rejects a PNG whose card chunk has a bad CRC', () => {
    expectCardError(() => parseCharacterCard(fixture('bad-crc.png')), DAMAGED_CARD);
  });

  it('committed PNG fixtures match make-fixtures.ts', () => {
    for (const [name, bytes] of Object.entries(buildPngFixtures())) expect([name, fixture(name).equals(bytes)]).toEqual([name, true]);
  });
});

describe('parseCharacterCard: validation', () => {
  it('rejects empty and oversized input before parsing', () => {
    expectCardError(() => parseCharacterCard(Buffer.alloc(0)), 'This file is empty.');
    expectCardError(() => parseCharacterCard(Buffer.alloc(MAX_CARD_BYTES + 1, 0x20)), 'This file is too large (the limit is 8 MB).');
    expectCardError(() => parseCharacterCard('{"name":"x"}' as unknown as Buffer), INVALID);
  });

  it('accepts a card of exactly MAX_CARD_BYTES', () => {
    const body = json({ name: 'Big', description: 'x' });
    const padded = Buffer.concat([body, Buffer.alloc(MAX_CARD_BYTES - body.length, 0x20)]);
    expect(parseCharacterCard(padded).data.name).toBe('Big');
  });

  it('rejects malformed JSON, non-objects, invalid UTF-8 and objects that are no card', () => {
    expectCardError(() => parseCharacterCard(Buffer.from('{"name": "Mira",')), INVALID);
    expectCardError(() => parseCharacterCard(json([{ name: 'x', description: 'y' }])), INVALID);
    expectCardError(() => parseCharacterCard(json('a string')), INVALID);
    expectCardError(() => parseCharacterCard(json(null)), INVALID);
    expectCardError(() => parseCharacterCard(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])), INVALID);
    expectCardError(() => parseCharacterCard(json({ foo: 1 })), INVALID);
    expectCardError(() => parseCharacterCard(json({ name: 'Only a name' })), INVALID);
    expectCardError(() => parseCharacterCard(json({ spec: 'something_else', name: 'x', description: 'y' })), INVALID);
  });

  it('names lorebooks and other image formats', () => {
    expectCardError(
      () => parseCharacterCard(json({ spec: 'lorebook_v3', data: { entries: [] } })),
      'This file is a lorebook, not a character card.',
    );
    expectCardError(
      () => parseCharacterCard(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])),
      'Only PNG and JSON character cards can be imported.',
    );
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
    expectCardError(() => parseCharacterCard(webp), 'Only PNG and JSON character cards can be imported.');
  });

  it('requires a name that is not blank', () => {
    expectCardError(
      () => parseCharacterCard(json({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: '   ', description: 'x' } })),
      NO_NAME,
    );
    expectCardError(() => parseCharacterCard(json({ spec: 'chara_card_v3', spec_version: '3.0', data: { description: 'x' } })), NO_NAME);
    expectCardError(() => parseCharacterCard(json({ name: '', description: 'x' })), NO_NAME);
    expectCardError(() => parseCharacterCard(json({ spec: 'chara_card_v2', data: { name: { first: 'Mira' } } })), NO_NAME);
    expect(parseCharacterCard(json({ name: '  Mira  ', description: '' })).data.name).toBe('Mira');
  });

  it('ignores a BOM', () => {
    const card = parseCharacterCard(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fixture('v3-risuai.json')]));
    expect(card.data.name).toBe('Seo-yeon Han');
  });

  it('coerces field types: non-strings become "" (finite numbers their digits), lists keep only strings', () => {
    const card = parseCharacterCard(
      json({
        spec: 'chara_card_v2',
        spec_version: '2.0',
        data: {
          name: 'Coerced',
          description: ['not', 'text'],
          personality: null,
          scenario: { a: 1 },
          first_mes: true,
          character_version: 1.5,
          tags: ['a', 1, null, 'b', { c: 1 }],
          alternate_greetings: 'not a list',
          extensions: ['not', 'an', 'object'],
          character_book: null,
        },
      }),
    );
    expect(card.data).toStrictEqual({
      name: 'Coerced',
      description: '',
      personality: '',
      scenario: '',
      first_mes: '',
      mes_example: '',
      creator_notes: '',
      system_prompt: '',
      post_history_instructions: '',
      alternate_greetings: [],
      tags: ['a', 'b'],
      creator: '',
      character_version: '1.5',
      extensions: {},
      extra: { group_only_greetings: [] },
    });
  });

  it('fills what data lacks from the top level of older V2 exports (data wins)', () => {
    const card = parseCharacterCard(
      json({
        name: 'Top name',
        description: 'Top description',
        creatorcomment: 'Top comment',
        tags: ['top'],
        spec: 'chara_card_v2',
        spec_version: '2.0',
        data: { name: 'Data name', first_mes: 'Hi', tags: [] },
      }),
    );
    expect(card.data.name).toBe('Data name');
    expect(card.data.description).toBe('Top description');
    expect(card.data.creator_notes).toBe('Top comment');
    expect(card.data.tags).toEqual([]);
    expect(card.data.first_mes).toBe('Hi');
  });

  it('detects the version of spec-less or unknown-spec wrapped cards by spec_version', () => {
    expect(parseCharacterCard(json({ data: { name: 'A', description: '' } })).spec).toBe('v2');
    expect(parseCharacterCard(json({ spec: 'chara_card_v3.1', spec_version: '3.1', data: { name: 'B' } })).spec).toBe('v3');
    expect(parseCharacterCard(json({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'C' } })).spec).toBe('v2');
  });

  it('maps SillyTavern V1 extras into V2 places and keeps unknown V1 fields in extra', () => {
    const card = parseCharacterCard(
      json({
        name: 'Old',
        description: 'd',
        creatorcomment: 'notes',
        talkativeness: '0.7',
        fav: true,
        avatar: 'none',
        chat: 'x',
        x_unknown: [1],
      }),
    );
    expect(card.spec).toBe('v1');
    expect(card.data.creator_notes).toBe('notes');
    expect(card.data.extensions).toEqual({ talkativeness: '0.7', fav: true });
    expect(card.data.extra).toEqual({ x_unknown: [1], group_only_greetings: [] });
  });

  it('caps text fields, list lengths and JSON fields with a clear message', () => {
    const big = 'a'.repeat(CARD_LIMITS.textFieldBytes + 1);
    const v2 = (data: Record<string, unknown>) => json({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Capped', ...data } });
    expectCardError(() => parseCharacterCard(v2({ description: big })), "The card's description is too long (the limit is 64 KB).");
    // Multi-byte characters count in UTF-8 bytes.
    const wide = 'é'.repeat(CARD_LIMITS.textFieldBytes / 2 + 1);
    expectCardError(() => parseCharacterCard(v2({ first_mes: wide })), "The card's first message is too long (the limit is 64 KB).");
    expect(parseCharacterCard(v2({ description: 'a'.repeat(CARD_LIMITS.textFieldBytes) })).data.description).toHaveLength(
      CARD_LIMITS.textFieldBytes,
    );
    expectCardError(
      () => parseCharacterCard(v2({ alternate_greetings: ['ok', big] })),
      "The card's alternate greetings is too long (the limit is 64 KB).",
    );
    expectCardError(
      () => parseCharacterCard(v2({ tags: Array.from({ length: CARD_LIMITS.listItems + 1 }, (_, i) => `t${i}`) })),
      'The card has too many tags (the limit is 1000).',
    );
    const hugeBook = { entries: Array.from({ length: 20 }, () => ({ keys: ['k'], content: 'x'.repeat(60_000) })) };
    expectCardError(() => parseCharacterCard(v2({ character_book: hugeBook })), "The card's lorebook is too long (the limit is 1 MB).");
    const hugeExtensions = { blob: Array.from({ length: 20 }, () => 'x'.repeat(60_000)) };
    expectCardError(
      () => parseCharacterCard(v2({ extensions: hugeExtensions })),
      "The card's extension data is too long (the limit is 1 MB).",
    );
  });

  it('rejects absurdly deep nesting', () => {
    let nested: unknown = 'deep';
    for (let i = 0; i < CARD_LIMITS.depth + 5; i++) nested = [nested];
    expectCardError(() => parseCharacterCard(json({ spec: 'chara_card_v2', data: { name: 'Deep', extensions: { nested } } })), INVALID);
    expectCardError(() => parseCharacterCard(Buffer.from('['.repeat(200_000))), INVALID);
  });

  it('rejects damaged PNG structure and bad card chunk payloads', () => {
    const good = fixture('v2-chara.png');
    expectCardError(() => parseCharacterCard(good.subarray(0, good.length - 20)), DAMAGED_PNG);
    const hugeLength = Buffer.from(good);
    hugeLength.writeUInt32BE(0x7ffffff0, 8 + 25); // the length of the chunk after IHDR
    expectCardError(() => parseCharacterCard(hugeLength), DAMAGED_PNG);
    // A critical chunk (IDAT) with a bad CRC.
    const badIdat = pngWith(chunk('IDAT', Buffer.from([1, 2, 3]), true), tEXt('chara', b64(readJsonFixture('v2-sillytavern.json'))));
    expectCardError(() => parseCharacterCard(badIdat), DAMAGED_PNG);
    // Not base64, base64 of non-JSON, base64 of invalid UTF-8, JSON that is no card.
    expectCardError(() => parseCharacterCard(pngWith(tEXt('chara', '***not base64***'))), INVALID);
    expectCardError(() => parseCharacterCard(pngWith(tEXt('chara', b64('hello world')))), INVALID);
    expectCardError(() => parseCharacterCard(pngWith(tEXt('chara', Buffer.from([0xff, 0xfe, 0xfd]).toString('base64')))), INVALID);
    expectCardError(() => parseCharacterCard(pngWith(tEXt('ccv3', b64('[1,2,3]')))), INVALID);
    expectCardError(() => parseCharacterCard(pngWith(tEXt('chara', ''))), INVALID);
    // An unrelated ancillary chunk with a bad CRC is dropped from the image, not fatal.
    const card = parseCharacterCard(
      pngWith(chunk('tIME', Buffer.alloc(7), true), tEXt('chara', b64(readJsonFixture('v2-sillytavern.json')))),
    );
    expectSameBytes(card.image, fixture('no-card.png'));
  });

  it('bounds decompression of zTXt card chunks', () => {
    const bomb = deflateSync(Buffer.alloc(MAX_CARD_BYTES + 1024, 0x41));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const zTXt = chunk('zTXt', Buffer.concat([Buffer.from('chara\0\0', 'latin1'), bomb]));
    expectCardError(() => parseCharacterCard(pngWith(zTXt)), INVALID);
  });

  it('accepts case variants of the keyword and raw JSON in the chunk, as some tools write them', () => {
    const v2 = readJsonFixture('v2-sillytavern.json');
    expect(parseCharacterCard(pngWith(tEXt('Chara', b64(v2)))).data.name).toBe('Elowen Ashgrove');
    const rawJson = chunk('tEXt', Buffer.concat([Buffer.from('chara\0', 'latin1'), Buffer.from(v2, 'utf8')]));
    expect(parseCharacterCard(pngWith(rawJson)).data).toStrictEqual(parseCharacterCard(Buffer.from(v2)).data);
  });
});

describe('prototype pollution', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it('drops __proto__, constructor and prototype keys at every depth and pollutes nothing', () => {
    const card = parseCharacterCard(fixture('proto-pollution.json'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(card.spec).toBe('v2');
    expect(card.data.name).toBe('Plain Jane');
    expect(Object.getPrototypeOf(card.data.extensions)).toBe(Object.prototype);
    expect(card.data.extensions).toStrictEqual({ safe_key: { kept: true } });
    expect((card.data.extensions as Record<string, unknown>).polluted).toBeUndefined();
    expect(card.data.character_book).toStrictEqual({ entries: [{ keys: ['x'], content: 'y' }] });
    expect(card.data.extra).toStrictEqual({ x_custom: { value: 1 }, group_only_greetings: [] });

    // And through an export and a PNG round trip.
    const again = parseCharacterCard(cardToPng(card.data, null));
    expect(again.data).toStrictEqual(card.data);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores __proto__ smuggled into the data given to the exporters', () => {
    const data = parseCharacterCard(fixture('v2-sillytavern.json')).data;
    const extra = JSON.parse('{"__proto__": {"polluted": "export"}, "constructor": 1, "x_ok": 2}') as Record<string, unknown>;
    const out = JSON.parse(cardToJson({ ...data, extra }, 'v3')) as { data: Record<string, unknown> };
    expect(Object.keys(out.data)).not.toContain('__proto__');
    expect(Object.keys(out.data)).not.toContain('constructor');
    expect(out.data.x_ok).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('cardToJson', () => {
  it('V2 → V2 JSON is lossless, including unknown extensions, lorebook and unknown non-V3 fields', () => {
    const data = parseCharacterCard(fixture('v2-sillytavern.json')).data;
    const withUnknown = { ...data, extra: { ...data.extra, x_agnai_memory: { depth: 3, nested: [{ a: 1 }] } } };
    const text = cardToJson(withUnknown, 'v2');
    const obj = JSON.parse(text) as Record<string, unknown> & { data: Record<string, unknown> };
    expect(obj.spec).toBe('chara_card_v2');
    expect(obj.spec_version).toBe('2.0');
    expect(text).toContain('\n  "data": {');
    for (const key of V3_ONLY) expect(obj.data).not.toHaveProperty(key);
    expect(obj.data.x_agnai_memory).toEqual({ depth: 3, nested: [{ a: 1 }] });
    expect(obj.data.extensions).toEqual(v2Raw.data.extensions);
    expect(obj.data.character_book).toEqual(v2Raw.data.character_book);
    const back = parseCharacterCard(Buffer.from(text));
    expect(back.spec).toBe('v2');
    expect(back.data).toStrictEqual(withUnknown);
    expect(parseCharacterCard(Buffer.from(cardToJson(data, 'v2'))).data).toStrictEqual(data);
  });

  it('V3 → V3 JSON is lossless, with every V3-only and unknown field', () => {
    const data = parseCharacterCard(fixture('v3-risuai.json')).data;
    const withUnknown = { ...data, extra: { ...data.extra, x_future_field: { a: [1, { b: null }] } } };
    const obj = JSON.parse(cardToJson(withUnknown, 'v3')) as Record<string, unknown> & { data: Record<string, unknown> };
    expect(obj.spec).toBe('chara_card_v3');
    expect(obj.spec_version).toBe('3.0');
    expect(obj.data).toEqual({ ...v3Raw.data, x_future_field: { a: [1, { b: null }] } });
    const back = parseCharacterCard(Buffer.from(cardToJson(withUnknown, 'v3')));
    expect(back.spec).toBe('v3');
    expect(back.data).toStrictEqual(withUnknown);
  });

  it('V3 → V2 JSON keeps the V2 fields and unknown fields, and leaves V3-only fields out', () => {
    const data = parseCharacterCard(fixture('v3-risuai.json')).data;
    const obj = JSON.parse(cardToJson({ ...data, extra: { ...data.extra, x_keep: 1 } }, 'v2')) as { data: Record<string, unknown> };
    expect(Object.keys(obj.data).sort()).toEqual([...V2_KEYS, 'x_keep'].sort());
    expect(obj.data.extensions).toEqual(v3Raw.data.extensions);
  });

  it('V3 export defaults group_only_greetings to [] and a V3 card without it still round-trips', () => {
    const { group_only_greetings: _dropped, ...rest } = v3Raw.data;
    const card = parseCharacterCard(json({ ...v3Raw, data: rest }));
    expect(card.data.extra.group_only_greetings).toEqual([]);
    const obj = JSON.parse(cardToJson(card.data, 'v3')) as { data: Record<string, unknown> };
    expect(obj.data.group_only_greetings).toEqual([]);
    const { group_only_greetings: _alsoDropped, ...extraWithout } = card.data.extra;
    const fromBareExtra = JSON.parse(cardToJson({ ...card.data, extra: extraWithout }, 'v3')) as { data: Record<string, unknown> };
    expect(fromBareExtra.data.group_only_greetings).toEqual([]);
    expect(parseCharacterCard(Buffer.from(cardToJson(card.data, 'v3'))).data).toStrictEqual(card.data);
  });

  it('V1 exports as V2 and V3', () => {
    const data = parseCharacterCard(fixture('v1-tavernai.json')).data;
    expect(parseCharacterCard(Buffer.from(cardToJson(data, 'v2'))).data).toStrictEqual(data);
    expect(parseCharacterCard(Buffer.from(cardToJson(data, 'v3'))).data).toStrictEqual(data);
  });

  it('refuses to export a card without a name', () => {
    const data = parseCharacterCard(fixture('v1-tavernai.json')).data;
    expectCardError(() => cardToJson({ ...data, name: ' ' }, 'v2'), NO_NAME);
  });
});

describe('cardToPng', () => {
  const inputs = ['v1-tavernai.json', 'v2-sillytavern.json', 'v3-risuai.json', 'v2-chara.png', 'v3-both.png'];

  it.each(inputs)('%s → PNG → parse is lossless', (name) => {
    const parsed = parseCharacterCard(fixture(name));
    const png = cardToPng(parsed.data, parsed.image);
    const back = parseCharacterCard(png);
    expect(back.spec).toBe('v3');
    expect(back.data).toStrictEqual(parsed.data);
    // The image comes back byte-identical: the fixture image, or the default portrait for JSON cards.
    expectSameBytes(back.image, parsed.image ?? defaultPortraitPng());
  });

  it('writes a valid PNG with exactly one chara (V2) and one ccv3 (V3) tEXt chunk before IEND', () => {
    const parsed = parseCharacterCard(fixture('v3-both.png'));
    const png = cardToPng(parsed.data, fixture('v3-both.png'));
    const chunks = validPngChunks(png);
    const texts = textChunks(chunks);
    expect(texts.map((t) => t.keyword)).toEqual(['Software', 'chara', 'ccv3']);
    expect(chunks.slice(-3).map((c) => c.type)).toEqual(['tEXt', 'tEXt', 'IEND']);
    const v2 = JSON.parse(Buffer.from(texts[1].text, 'base64').toString('utf8')) as Record<string, unknown> & {
      data: Record<string, unknown>;
    };
    const v3 = JSON.parse(Buffer.from(texts[2].text, 'base64').toString('utf8')) as Record<string, unknown> & {
      data: Record<string, unknown>;
    };
    expect([v2.spec, v2.spec_version]).toEqual(['chara_card_v2', '2.0']);
    expect([v3.spec, v3.spec_version]).toEqual(['chara_card_v3', '3.0']);
    for (const key of V3_ONLY) expect(v2.data).not.toHaveProperty(key);
    expect(v3.data).toEqual(v3Raw.data);
    // Chunks other than the card's are kept in order, byte for byte.
    expect(chunks.filter((c) => !(c.type === 'tEXt' && c.data.toString('latin1').match(/^(chara|ccv3)\0/))).map((c) => c.type)).toEqual([
      'IHDR',
      'PLTE',
      'tEXt',
      'IDAT',
      'IEND',
    ]);
  });

  it('replaces card chunks in any text chunk type and keyword case', () => {
    const data = parseCharacterCard(fixture('v1-tavernai.json')).data;
    const old = pngWith(tEXt('CHARA', b64('{}')), chunk('zTXt', Buffer.concat([Buffer.from('ccv3\0\0', 'latin1'), deflateSync('x')])));
    const texts = textChunks(validPngChunks(cardToPng(data, old)));
    expect(texts.map((t) => t.keyword)).toEqual(['Software', 'chara', 'ccv3']);
    expect(validPngChunks(cardToPng(data, old)).filter((c) => c.type === 'zTXt')).toHaveLength(0);
  });

  it('uses a valid 400x600 default portrait when there is no image', () => {
    const data = parseCharacterCard(fixture('v1-tavernai.json')).data;
    const png = cardToPng(data, null);
    const chunks = validPngChunks(png);
    const ihdr = chunks[0].data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[12]]).toEqual([400, 600, 8, 2, 0]);
    const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
    expect(raw.length).toBe((400 * 3 + 1) * 600);
    for (let y = 0; y < 600; y++) expect(raw[y * (400 * 3 + 1)]).toBeLessThanOrEqual(4);
    expect(png.length).toBeLessThan(100 * 1024);
    expect(textChunks(chunks).map((t) => t.keyword)).toEqual(['chara', 'ccv3']);
    // Callers get their own copy.
    const portrait = defaultPortraitPng();
    portrait[20] ^= 0xff;
    expect(defaultPortraitPng().equals(portrait)).toBe(false);
  });

  it('rejects an image that is not a usable PNG, and a card too large for a PNG', () => {
    const data = parseCharacterCard(fixture('v1-tavernai.json')).data;
    expectCardError(() => cardToPng(data, Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'The character image must be a PNG.');
    const truncated = fixture('no-card.png').subarray(0, 100);
    expectCardError(() => cardToPng(data, truncated), 'The character image is damaged and cannot be used.');
    const hugeImage = pngWith(encodeChunk('zzZz', Buffer.alloc(MAX_CARD_BYTES)));
    expectCardError(() => cardToPng(data, hugeImage), /too large to export/);
  });
});

describe('png-chunks', () => {
  it('computes the standard CRC-32 check value', () => {
    expect(crc32(Buffer.from('123456789', 'ascii'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
    const bytes = Buffer.from('IEND', 'ascii');
    expect(crc32(bytes)).toBe(crc32Bitwise(bytes));
  });

  it('stripPngMetadata keeps only rendering chunks, byte for byte', () => {
    const withMeta = pngWith(chunk('eXIf', Buffer.from('MM\0*GPS')), chunk('tIME', Buffer.alloc(7)), tEXt('chara', b64('{}')));
    const stripped = stripPngMetadata(withMeta);
    expect(validPngChunks(stripped).map((c) => c.type)).toEqual(['IHDR', 'PLTE', 'IDAT', 'IEND']);
    const noCard = fixture('no-card.png');
    expect(
      stripped.subarray(8).equals(
        Buffer.concat(
          validPngChunks(noCard)
            .filter((c) => c.type !== 'tEXt')
            .map((c) => encodeChunk(c.type, c.data)),
        ),
      ),
    ).toBe(true);
  });
});
