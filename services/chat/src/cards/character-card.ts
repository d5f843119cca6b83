import { Buffer } from 'node:buffer';
import {
  type PngChunk,
  PngFormatError,
  assemblePng,
  decodeTextChunk,
  encodeChunk,
  encodeRgbPng,
  encodeTextChunk,
  isCriticalChunk,
  isPng,
  readPngChunks,
  textChunkKeyword,
} from './png-chunks';

/**
 * Character Card V1 / V2 / V3 import and export (the de-facto standard of SillyTavern, RisuAI, Chub, …).
 *
 * - V1 (TavernAI): a flat `{ name, description, personality, scenario, first_mes, mes_example }`.
 * - V2 (`malfoyslastname/character-card-spec-v2`): `{ spec: 'chara_card_v2', spec_version: '2.0', data }`.
 * - V3 (`kwaroran/character-card-spec-v3`): `{ spec: 'chara_card_v3', spec_version: '3.0', data }`, data being
 *   V2's plus `nickname`, `creator_notes_multilingual`, `source`, `group_only_greetings`, `creation_date`,
 *   `modification_date`, `assets`.
 * - PNG: a `tEXt` chunk `chara` holds base64(UTF-8 JSON of V2), `ccv3` holds base64(V3); `ccv3` wins when both
 *   exist (as in SillyTavern). `iTXt` and `zTXt` chunks with those keywords are read too.
 *
 * Everything read is untrusted: sizes are bounded, CRCs of card chunks checked, every string field coerced,
 * `__proto__` / `constructor` / `prototype` keys dropped at every depth, and failures are CardErrors whose
 * message can be shown to the member as is.
 */

export interface CharacterCardData {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  creator_notes: string;
  system_prompt: string;
  post_history_instructions: string;
  alternate_greetings: string[];
  tags: string[];
  creator: string;
  character_version: string;
  extensions: Record<string, unknown>; // kept verbatim, unknown keys included
  character_book?: unknown; // kept verbatim
  /**
   * Every other field of `data` (V3-only fields like nickname, assets, group_only_greetings, creation_date, source,
   * creator_notes_multilingual, and any unknown field), kept verbatim so a round trip loses nothing.
   *
   * `group_only_greetings` is always present here after parsing (an array of strings, `[]` when the card had
   * none, whatever its version): V3 requires the field, and normalising it on every import keeps
   * parse → export → parse deep-equal whichever format the export used.
   */
  extra: Record<string, unknown>;
}

export type CardSpec = 'v1' | 'v2' | 'v3';

export interface ParsedCard {
  spec: CardSpec;
  data: CharacterCardData;
  /** The PNG the card came in, with card chunks removed (usable as the avatar). */
  image: Buffer | null;
}

/** A problem with a card file; the message is written for the member. */
export class CardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CardError';
  }
}

export const MAX_CARD_BYTES = 8 * 1024 * 1024;

/** Bounds on what one card may hold, besides MAX_CARD_BYTES for the whole file. */
export const CARD_LIMITS = {
  /** Each text field, and each greeting or tag, in UTF-8 bytes. */
  textFieldBytes: 64 * 1024,
  /** Items in `alternate_greetings`, `tags`, `group_only_greetings`. */
  listItems: 1000,
  /** `character_book`, `extensions` and `extra`, each as compact JSON. */
  jsonFieldBytes: 1024 * 1024,
  /** Nesting of objects and arrays anywhere in the card. */
  depth: 100,
} as const;

const INVALID_CARD = 'This file is not a valid character card.';
const NO_CARD_IN_PNG = 'This PNG has no character card data.';
const NO_NAME = 'The card has no character name.';
const DAMAGED_CARD_CHUNK = 'The character data in this PNG is damaged.';
const DAMAGED_PNG = 'This PNG is damaged and cannot be read.';

const TEXT_FIELDS = [
  'name',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'creator_notes',
  'system_prompt',
  'post_history_instructions',
  'creator',
  'character_version',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
const LIST_FIELDS = ['alternate_greetings', 'tags'] as const;
type ListField = (typeof LIST_FIELDS)[number];

const FIELD_LABELS: Record<string, string> = {
  name: 'name',
  description: 'description',
  personality: 'personality',
  scenario: 'scenario',
  first_mes: 'first message',
  mes_example: 'example dialogue',
  creator_notes: "creator's notes",
  system_prompt: 'system prompt',
  post_history_instructions: 'post-history instructions',
  creator: 'creator',
  character_version: 'version',
  alternate_greetings: 'alternate greetings',
  tags: 'tags',
  group_only_greetings: 'group greetings',
  character_book: 'lorebook',
  extensions: 'extension data',
  extra: 'additional data',
};

/** Keys of `data` that have their own property in CharacterCardData (everything else goes to `extra`). */
const KNOWN_DATA_KEYS = new Set<string>([...TEXT_FIELDS, ...LIST_FIELDS, 'extensions', 'character_book']);
/** Fields V3 added; they are written in V3 exports only. */
const V3_ONLY_KEYS = new Set<string>([
  'nickname',
  'creator_notes_multilingual',
  'source',
  'group_only_greetings',
  'creation_date',
  'modification_date',
  'assets',
]);
/** Never copied anywhere: the classic prototype-pollution keys. */
const FORBIDDEN_KEYS = new Set<string>(['__proto__', 'constructor', 'prototype']);
/** The V1 fields; a spec-less object with `name` and one of these is a V1 card. */
const V1_FIELDS = ['description', 'personality', 'scenario', 'first_mes', 'mes_example'] as const;
/** Keys TavernAI / SillyTavern write at the top level of their own files that describe local state, not the character. */
const V1_LOCAL_KEYS = new Set<string>(['avatar', 'chat', 'create_date', 'json_data']);

type JsonObject = Record<string, unknown>;

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tooLong(field: string, limitBytes: number): CardError {
  const limit = limitBytes >= 1024 * 1024 ? `${limitBytes / (1024 * 1024)} MB` : `${limitBytes / 1024} KB`;
  return new CardError(`The card's ${FIELD_LABELS[field] ?? field} is too long (the limit is ${limit}).`);
}

function utf8Length(text: string): number {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: skip the count when it cannot matter.
  return text.length * 3 <= CARD_LIMITS.textFieldBytes ? text.length : Buffer.byteLength(text, 'utf8');
}

/**
 * A deep copy of parsed JSON made of plain objects and arrays, without `__proto__`, `constructor` or
 * `prototype` keys at any depth, and no deeper than CARD_LIMITS.depth.
 */
function cleanJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= CARD_LIMITS.depth) throw new CardError(INVALID_CARD);
  if (Array.isArray(value)) return value.map((item) => cleanJson(item, depth + 1));
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    out[key] = cleanJson((value as JsonObject)[key], depth + 1);
  }
  return out;
}

function parseJson(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // SyntaxError, or RangeError for absurd nesting.
    throw new CardError(INVALID_CARD);
  }
  return cleanJson(parsed);
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    // Strips a leading BOM; fatal so binary junk is not mistaken for text.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CardError(INVALID_CARD);
  }
}

/**
 * The JSON text in a card chunk: base64 of UTF-8 (standard or URL-safe alphabet), or, from a few tools, raw
 * UTF-8 JSON (which tEXt / zTXt decoding read as Latin-1, so it is decoded again).
 */
function decodeChunkText(text: string, chunkType: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return chunkType === 'iTXt' ? trimmed : decodeUtf8(Buffer.from(trimmed, 'latin1'));
  const compact = trimmed.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 === 1 || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) {
    throw new CardError(INVALID_CARD);
  }
  return decodeUtf8(Buffer.from(compact, 'base64'));
}

function cardChunkKeyword(chunk: PngChunk): 'chara' | 'ccv3' | null {
  const keyword = textChunkKeyword(chunk)?.toLowerCase();
  return keyword === 'chara' || keyword === 'ccv3' ? keyword : null;
}

/** The PNG's chunks; critical chunks must have good CRCs. */
function readChunks(png: Buffer, damagedMessage: string): PngChunk[] {
  try {
    return readPngChunks(png, { maxChunkLength: MAX_CARD_BYTES });
  } catch (error) {
    if (error instanceof PngFormatError) throw new CardError(damagedMessage);
    throw error;
  }
}

/** Card JSON text (ccv3 preferred over chara) and the image without its card chunks. */
function readCardFromPng(png: Buffer): { json: string; image: Buffer } {
  const chunks = readChunks(png, DAMAGED_PNG);
  const kept: Buffer[] = [];
  let ccv3: PngChunk | undefined;
  let chara: PngChunk | undefined;
  for (const chunk of chunks) {
    const keyword = cardChunkKeyword(chunk);
    if (keyword) {
      if (!chunk.crcOk) throw new CardError(DAMAGED_CARD_CHUNK);
      if (keyword === 'ccv3') ccv3 ??= chunk;
      else chara ??= chunk;
      continue;
    }
    if (!chunk.crcOk) {
      if (isCriticalChunk(chunk.type)) throw new CardError(DAMAGED_PNG);
      continue; // A damaged ancillary chunk is dropped, as libpng does by default.
    }
    kept.push(chunk.raw);
  }
  const chosen = ccv3 ?? chara;
  if (!chosen) throw new CardError(NO_CARD_IN_PNG);
  let text: string;
  try {
    text = decodeTextChunk(chosen, { maxInflatedBytes: MAX_CARD_BYTES })?.text ?? '';
  } catch (error) {
    if (error instanceof PngFormatError) throw new CardError(INVALID_CARD);
    throw error;
  }
  return { json: decodeChunkText(text, chosen.type), image: assemblePng(kept) };
}

function coerceText(value: unknown, field: string): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
  if (utf8Length(text) > CARD_LIMITS.textFieldBytes) throw tooLong(field, CARD_LIMITS.textFieldBytes);
  return text;
}

function coerceList(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) return [];
  const items = value.filter((item): item is string => typeof item === 'string');
  if (items.length > CARD_LIMITS.listItems) {
    throw new CardError(`The card has too many ${FIELD_LABELS[field] ?? field} (the limit is ${CARD_LIMITS.listItems}).`);
  }
  for (const item of items) if (utf8Length(item) > CARD_LIMITS.textFieldBytes) throw tooLong(field, CARD_LIMITS.textFieldBytes);
  return items;
}

function checkJsonSize(value: unknown, field: string): void {
  if (value === undefined) return;
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > CARD_LIMITS.jsonFieldBytes) throw tooLong(field, CARD_LIMITS.jsonFieldBytes);
}

/** Turns the (cleaned) `data` object of any version into CharacterCardData. */
function normalizeData(source: JsonObject): CharacterCardData {
  const text = {} as Record<TextField, string>;
  for (const field of TEXT_FIELDS) text[field] = coerceText(source[field], field);
  text.name = text.name.trim();
  if (!text.name) throw new CardError(NO_NAME);
  const lists = {} as Record<ListField, string[]>;
  for (const field of LIST_FIELDS) lists[field] = coerceList(source[field], field);

  const extensions = isRecord(source.extensions) ? source.extensions : {};
  checkJsonSize(extensions, 'extensions');

  const extra: JsonObject = {};
  for (const key of Object.keys(source)) if (!KNOWN_DATA_KEYS.has(key)) extra[key] = source[key];
  // Required by V3 (an array of strings); present for every version so that round trips stay deep-equal.
  extra.group_only_greetings = coerceList(extra.group_only_greetings, 'group_only_greetings');
  checkJsonSize(extra, 'extra');

  const data: CharacterCardData = { ...text, ...lists, extensions, extra };
  // A lorebook is an object; `null` (written by some tools) or anything else means "none".
  if (isRecord(source.character_book)) {
    checkJsonSize(source.character_book, 'character_book');
    data.character_book = source.character_book;
  }
  return data;
}

/** Which version a parsed JSON object is, and its `data` with legacy top-level fields folded in. */
function interpretCard(raw: unknown): { spec: CardSpec; data: CharacterCardData } {
  if (!isRecord(raw)) throw new CardError(INVALID_CARD);
  const spec = raw.spec;
  const wrapped = isRecord(raw.data);
  if (spec === 'lorebook_v3' || (spec === undefined && !wrapped && Array.isArray(raw.entries))) {
    throw new CardError('This file is a lorebook, not a character card.');
  }

  let version: CardSpec;
  if (spec === 'chara_card_v3') version = 'v3';
  else if (spec === 'chara_card_v2') version = 'v2';
  else if (wrapped && (spec === undefined || (typeof spec === 'string' && spec.startsWith('chara_card_')))) {
    // No or an unknown `spec` but a `data` object: go by `spec_version` (V3 §spec_version: compare as a float).
    const specVersion = typeof raw.spec_version === 'number' ? raw.spec_version : parseFloat(String(raw.spec_version ?? ''));
    version = specVersion >= 3 ? 'v3' : 'v2';
  } else if (spec === undefined && hasOwn(raw, 'name') && V1_FIELDS.some((field) => hasOwn(raw, field))) {
    return { spec: 'v1', data: normalizeData(v1ToData(raw)) };
  } else {
    throw new CardError(INVALID_CARD);
  }

  // Older exporters (SillyTavern among them) mirror the V1 fields at the top level: `data` wins, the top level
  // only fills what `data` lacks.
  const data: JsonObject = wrapped ? { ...(raw.data as JsonObject) } : {};
  for (const field of [...TEXT_FIELDS, ...LIST_FIELDS]) {
    if (!hasOwn(data, field) && hasOwn(raw, field)) data[field] = raw[field];
  }
  if (!hasOwn(data, 'creator_notes') && hasOwn(raw, 'creatorcomment')) data.creator_notes = raw.creatorcomment;
  return { spec: version, data: normalizeData(data) };
}

/** A V1 object as V2-style `data`: SillyTavern's V1 extras move where V2 keeps them, TavernAI's local state is dropped. */
function v1ToData(raw: JsonObject): JsonObject {
  const data: JsonObject = {};
  const extensions: JsonObject = isRecord(raw.extensions) ? { ...raw.extensions } : {};
  for (const key of Object.keys(raw)) {
    if (V1_LOCAL_KEYS.has(key) || key === 'extensions') continue;
    if (key === 'creatorcomment') {
      if (!hasOwn(raw, 'creator_notes')) data.creator_notes = raw.creatorcomment;
    } else if (key === 'talkativeness' || key === 'fav') {
      if (!hasOwn(extensions, key)) extensions[key] = raw[key];
    } else {
      data[key] = raw[key];
    }
  }
  data.extensions = extensions;
  return data;
}

function rejectOtherImageFormats(bytes: Buffer): void {
  const jpeg = bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const webp = bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP';
  if (jpeg || webp) throw new CardError('Only PNG and JSON character cards can be imported.');
}

/**
 * Reads a character card: a PNG (detected by its signature) with a `ccv3` or `chara` chunk, or UTF-8 JSON (a BOM
 * is ignored) of a V1, V2 or V3 card. Throws CardError with a message for the member.
 */
export function parseCharacterCard(input: Buffer): ParsedCard {
  // Typed as Buffer, but callers in plain JavaScript may hand over any Uint8Array (or worse).
  const view: unknown = input;
  if (!(view instanceof Uint8Array)) throw new CardError(INVALID_CARD);
  const bytes = Buffer.isBuffer(view) ? view : Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  if (bytes.length === 0) throw new CardError('This file is empty.');
  if (bytes.length > MAX_CARD_BYTES) throw new CardError(`This file is too large (the limit is ${MAX_CARD_BYTES / (1024 * 1024)} MB).`);
  if (isPng(bytes)) {
    const { json, image } = readCardFromPng(bytes);
    return { ...interpretCard(parseJson(json)), image };
  }
  rejectOtherImageFormats(bytes);
  return { ...interpretCard(parseJson(decodeUtf8(bytes))), image: null };
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : '');
const asList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/**
 * The full card object of a version. V2 gets the V2 fields and the unknown non-V3 fields of `extra` (so V2 → V2
 * loses nothing); V3 gets everything, with `group_only_greetings` defaulting to `[]` (the spec requires it).
 * Dates are written as they are: set `extra.modification_date` before exporting to stamp one.
 */
function buildCardObject(data: CharacterCardData, spec: 'v2' | 'v3'): JsonObject {
  const name = asText(data.name).trim();
  if (!name) throw new CardError(NO_NAME);
  const out: JsonObject = {
    name,
    description: asText(data.description),
    personality: asText(data.personality),
    scenario: asText(data.scenario),
    first_mes: asText(data.first_mes),
    mes_example: asText(data.mes_example),
    creator_notes: asText(data.creator_notes),
    system_prompt: asText(data.system_prompt),
    post_history_instructions: asText(data.post_history_instructions),
    alternate_greetings: asList(data.alternate_greetings),
  };
  if (data.character_book !== undefined && data.character_book !== null) out.character_book = data.character_book;
  out.tags = asList(data.tags);
  out.creator = asText(data.creator);
  out.character_version = asText(data.character_version);
  out.extensions = isRecord(data.extensions) ? data.extensions : {};
  const extra = isRecord(data.extra) ? data.extra : {};
  for (const key of Object.keys(extra)) {
    if (KNOWN_DATA_KEYS.has(key) || FORBIDDEN_KEYS.has(key)) continue;
    if (spec === 'v2' && V3_ONLY_KEYS.has(key)) continue;
    out[key] = extra[key];
  }
  if (spec === 'v3' && !Array.isArray(out.group_only_greetings)) out.group_only_greetings = [];
  return spec === 'v3'
    ? { spec: 'chara_card_v3', spec_version: '3.0', data: out }
    : { spec: 'chara_card_v2', spec_version: '2.0', data: out };
}

/** Pretty JSON of a full V2 or V3 card object. */
export function cardToJson(data: CharacterCardData, spec: 'v2' | 'v3'): string {
  return JSON.stringify(buildCardObject(data, spec), null, 2);
}

/**
 * A PNG card: `image` (or the default portrait when null) with its old card chunks (`chara` / `ccv3` in tEXt,
 * iTXt or zTXt) removed and a `chara` (V2) then a `ccv3` (V3) tEXt chunk inserted before IEND. Every other chunk
 * is kept byte for byte, except damaged ancillary ones, which are dropped.
 */
export function cardToPng(data: CharacterCardData, image: Buffer | null): Buffer {
  const v2 = Buffer.from(JSON.stringify(buildCardObject(data, 'v2')), 'utf8').toString('base64');
  const v3 = Buffer.from(JSON.stringify(buildCardObject(data, 'v3')), 'utf8').toString('base64');
  const base = image ?? defaultPortraitPng();
  if (!isPng(base)) throw new CardError('The character image must be a PNG.');
  const damaged = 'The character image is damaged and cannot be used.';
  const kept: Buffer[] = [];
  for (const chunk of readChunks(base, damaged)) {
    if (chunk.type === 'IEND' || cardChunkKeyword(chunk)) continue;
    if (!chunk.crcOk) {
      if (isCriticalChunk(chunk.type)) throw new CardError(damaged);
      continue;
    }
    kept.push(chunk.raw);
  }
  const png = assemblePng([...kept, encodeTextChunk('chara', v2), encodeTextChunk('ccv3', v3), encodeChunk('IEND', Buffer.alloc(0))]);
  if (png.length > MAX_CARD_BYTES) {
    throw new CardError(`This card is too large to export as a PNG (the limit is ${MAX_CARD_BYTES / (1024 * 1024)} MB).`);
  }
  return png;
}

let defaultPortrait: Buffer | undefined;

/**
 * The portrait used when a card has no image: 400x600, dark purple with a soft vertical gradient, a faint glow
 * and a head-and-shoulders silhouette. Generated once, then copied.
 */
export function defaultPortraitPng(): Buffer {
  defaultPortrait ??= renderDefaultPortrait();
  return Buffer.from(defaultPortrait);
}

function renderDefaultPortrait(): Buffer {
  const width = 400;
  const height = 600;
  const rgb = new Uint8Array(width * height * 3);
  const top = [46, 24, 70];
  const bottom = [16, 9, 30];
  const glow = [78, 46, 112];
  const figure = [58, 34, 88];
  const cx = width / 2;
  for (let y = 0; y < height; y++) {
    const t = y / (height - 1);
    const gy = (y - height * 0.38) / (height * 0.45);
    const hy = y - height * 0.36;
    const ey = (y - height * 0.96) / (height * 0.46);
    for (let x = 0; x < width; x++) {
      const gx = (x - cx) / (width * 0.6);
      const glowBase = 1 - (gx * gx + gy * gy) ** 0.5;
      const glowAmount = glowBase > 0 ? glowBase * glowBase * 0.45 : 0;
      // Signed distances (pixels, positive inside) to the head circle and the shoulders ellipse, for soft 1.5 px edges.
      const hx = x - cx;
      const head = width * 0.15 - (hx * hx + hy * hy) ** 0.5;
      const ex = hx / (width * 0.5);
      const shoulders = (1 - (ex * ex + ey * ey) ** 0.5) * width * 0.3;
      const edge = (head > shoulders ? head : shoulders) / 1.5 + 0.5;
      const cover = (edge <= 0 ? 0 : edge >= 1 ? 1 : edge) * 0.7;
      const at = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        let value = top[c] + (bottom[c] - top[c]) * t;
        value += (glow[c] - value) * glowAmount;
        value += (figure[c] - value) * cover;
        rgb[at + c] = (value + 0.5) | 0; // Math calls are slow inside some sandboxes (jest's vm)
      }
    }
  }
  return encodeRgbPng(width, height, rgb);
}
