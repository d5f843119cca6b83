import { Buffer } from 'node:buffer';
import { deflateSync, inflateSync } from 'node:zlib';

/**
 * Just enough PNG to carry character cards: split a file into chunks (with bounds and CRC checks), decode and
 * encode the text chunks (`tEXt`, `iTXt`, `zTXt`), and encode a small truecolour image. Pure: buffers in,
 * buffers out. Node 20 has no `zlib.crc32`, so CRC-32 is implemented here.
 */

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Thrown when the bytes are not a well-formed PNG; callers turn it into a member-facing message. */
export class PngFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PngFormatError';
  }
}

const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309 / ITU-T V.42, the one PNG uses) of `bytes`, optionally continuing from a previous `crc`. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface PngChunk {
  /** Four ASCII letters, e.g. `IHDR`, `tEXt`. */
  type: string;
  /** The chunk's data (a view into the input buffer). */
  data: Buffer;
  /** The whole chunk as it appeared in the file (length, type, data, CRC): reassembling these is byte-identical. */
  raw: Buffer;
  /** Whether the stored CRC matches the type and data. */
  crcOk: boolean;
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.equals(Buffer.from(bytes.buffer, bytes.byteOffset, PNG_SIGNATURE.length));
}

/** A critical chunk (first letter upper-case) must be understood by every decoder; ancillary ones may be dropped. */
export function isCriticalChunk(type: string): boolean {
  return type.charCodeAt(0) >= 0x41 && type.charCodeAt(0) <= 0x5a;
}

export interface ReadChunksOptions {
  /** Largest chunk data accepted (defaults to the PNG maximum, 2^31 - 1; the input's own length bounds it anyway). */
  maxChunkLength?: number;
}

/**
 * Splits a PNG into its chunks, from the one after the signature up to and including `IEND` (bytes after `IEND`
 * are ignored). Throws PngFormatError when the signature is missing, a length runs past the end of the input or
 * over the limit, a chunk type is not four letters, `IHDR` is not first, or `IEND` is missing. CRCs are checked
 * and reported per chunk (`crcOk`), so the caller decides what a bad one means.
 */
export function readPngChunks(png: Buffer, options: ReadChunksOptions = {}): PngChunk[] {
  const maxChunkLength = Math.min(options.maxChunkLength ?? 0x7fffffff, 0x7fffffff);
  if (!isPng(png)) throw new PngFormatError('Missing PNG signature');
  const chunks: PngChunk[] = [];
  let offset = PNG_SIGNATURE.length;
  for (;;) {
    if (offset + 12 > png.length) throw new PngFormatError('Truncated PNG: no IEND chunk');
    const length = png.readUInt32BE(offset);
    if (length > maxChunkLength) throw new PngFormatError(`Chunk length ${length} exceeds the limit`);
    const end = offset + 12 + length;
    if (end > png.length) throw new PngFormatError('Truncated PNG: a chunk runs past the end of the file');
    const typeBytes = png.subarray(offset + 4, offset + 8);
    for (const byte of typeBytes) {
      const letter = (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
      if (!letter) throw new PngFormatError('Invalid chunk type');
    }
    const type = typeBytes.toString('latin1');
    const data = png.subarray(offset + 8, offset + 8 + length);
    const storedCrc = png.readUInt32BE(offset + 8 + length);
    const crcOk = crc32(data, crc32(typeBytes)) === storedCrc;
    if (chunks.length === 0 && type !== 'IHDR') throw new PngFormatError('The first chunk is not IHDR');
    chunks.push({ type, data, raw: png.subarray(offset, end), crcOk });
    offset = end;
    if (type === 'IEND') return chunks;
  }
}

/** One chunk, encoded with its length and CRC. */
export function encodeChunk(type: string, data: Uint8Array): Buffer {
  if (!/^[A-Za-z]{4}$/.test(type)) throw new PngFormatError('Invalid chunk type');
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Signature followed by the given (already encoded) chunks. */
export function assemblePng(rawChunks: readonly Uint8Array[]): Buffer {
  return Buffer.concat([PNG_SIGNATURE, ...rawChunks]);
}

export interface TextChunk {
  /** The keyword, as written (compare case-insensitively). */
  keyword: string;
  /** The text, decoded (Latin-1 for tEXt/zTXt, UTF-8 for iTXt) and decompressed. */
  text: string;
}

export interface DecodeTextOptions {
  /** Largest decompressed text accepted from zTXt / compressed iTXt (decompression bombs). */
  maxInflatedBytes: number;
}

/** The keyword of a `tEXt`, `iTXt` or `zTXt` chunk without decoding its text, or null when the chunk has none. */
export function textChunkKeyword(chunk: Pick<PngChunk, 'type' | 'data'>): string | null {
  if (chunk.type !== 'tEXt' && chunk.type !== 'iTXt' && chunk.type !== 'zTXt') return null;
  const nul = chunk.data.indexOf(0);
  // The PNG specification allows keywords of 1 to 79 bytes.
  if (nul < 1 || nul > 79) return null;
  return chunk.data.toString('latin1', 0, nul);
}

function inflateBounded(bytes: Buffer, maxInflatedBytes: number): Buffer {
  try {
    return inflateSync(bytes, { maxOutputLength: Math.max(1, maxInflatedBytes) });
  } catch {
    throw new PngFormatError('Compressed text is damaged or too large');
  }
}

/**
 * Decodes a `tEXt`, `iTXt` or `zTXt` chunk. Throws PngFormatError when it is malformed or decompresses past
 * the limit; returns null for other chunk types.
 */
export function decodeTextChunk(chunk: Pick<PngChunk, 'type' | 'data'>, options: DecodeTextOptions): TextChunk | null {
  const keyword = textChunkKeyword(chunk);
  if (keyword === null) {
    if (chunk.type === 'tEXt' || chunk.type === 'iTXt' || chunk.type === 'zTXt') throw new PngFormatError('Text chunk without keyword');
    return null;
  }
  const rest = chunk.data.subarray(keyword.length + 1);
  if (chunk.type === 'tEXt') return { keyword, text: rest.toString('latin1') };
  if (chunk.type === 'zTXt') {
    if (rest.length < 1 || rest[0] !== 0) throw new PngFormatError('Unknown zTXt compression method');
    return { keyword, text: inflateBounded(rest.subarray(1), options.maxInflatedBytes).toString('latin1') };
  }
  // iTXt: compression flag, compression method, language tag \0, translated keyword \0, text.
  if (rest.length < 2) throw new PngFormatError('Truncated iTXt chunk');
  const compressed = rest[0];
  const method = rest[1];
  const languageEnd = rest.indexOf(0, 2);
  if (languageEnd < 0) throw new PngFormatError('Truncated iTXt chunk');
  const translatedEnd = rest.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0) throw new PngFormatError('Truncated iTXt chunk');
  let body = rest.subarray(translatedEnd + 1);
  if (compressed === 1) {
    if (method !== 0) throw new PngFormatError('Unknown iTXt compression method');
    body = inflateBounded(body, options.maxInflatedBytes);
  } else if (compressed !== 0) {
    throw new PngFormatError('Invalid iTXt compression flag');
  }
  return { keyword, text: body.toString('utf8') };
}

/** A `tEXt` chunk. Keyword and text must be Latin-1 (base64 always is). */
export function encodeTextChunk(keyword: string, text: string): Buffer {
  if (!/^[\x20-\x7e\xa1-\xff]{1,79}$/.test(keyword)) throw new PngFormatError('Invalid tEXt keyword');
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\xff]|\x00/.test(text)) throw new PngFormatError('tEXt text must be Latin-1 without NUL');
  return encodeChunk('tEXt', Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]));
}

/**
 * A minimal PNG encoder: 8-bit truecolour (colour type 2), no interlace, every scanline with the Sub filter,
 * one zlib-deflated IDAT. `rgb` holds width * height * 3 bytes, rows top to bottom.
 */
export function encodeRgbPng(width: number, height: number, rgb: Uint8Array): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new PngFormatError('Invalid image size');
  const stride = width * 3;
  if (rgb.length !== stride * height) throw new PngFormatError('Pixel data does not match the image size');
  const filtered = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    filtered[row] = 1; // Sub: each byte minus the same channel of the pixel to its left.
    for (let x = 0; x < stride; x++) {
      const left = x >= 3 ? rgb[y * stride + x - 3] : 0;
      filtered[row + 1 + x] = (rgb[y * stride + x] - left) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0
  ihdr[12] = 0; // no interlace
  return assemblePng([
    encodeChunk('IHDR', ihdr),
    encodeChunk('IDAT', deflateSync(filtered, { level: 9 })),
    encodeChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Chunks that affect how the image looks; everything else (text, eXIf, tIME, private chunks) is metadata. */
const RENDERING_CHUNKS = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'bKGD',
  'pHYs',
  'acTL',
  'fcTL',
  'fdAT',
]);

/**
 * The PNG with only the chunks that affect rendering (so no text, EXIF or timestamps), each kept byte for byte;
 * damaged ancillary chunks are dropped. Throws PngFormatError for a malformed PNG or a damaged critical chunk.
 * Pixels are not decoded: re-encoding, if wanted, is the caller's.
 */
export function stripPngMetadata(png: Buffer): Buffer {
  const kept: Buffer[] = [];
  for (const chunk of readPngChunks(png)) {
    if (!chunk.crcOk) {
      if (isCriticalChunk(chunk.type)) throw new PngFormatError(`Damaged ${chunk.type} chunk`);
      continue;
    }
    if (RENDERING_CHUNKS.has(chunk.type)) kept.push(chunk.raw);
  }
  return assemblePng(kept);
}
