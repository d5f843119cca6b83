import { RENDITION_WIDTHS } from '@app/schema';
import sharp, { type Metadata } from 'sharp';

// thumbhash is ESM-only; Node 20.19+ loads it through require, which the CommonJS typings cannot express.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { rgbaToThumbHash } = require('thumbhash') as { rgbaToThumbHash(w: number, h: number, rgba: ArrayLike<number>): Uint8Array };

/** Pictures larger than this (per side) are refused rather than decoded: a bound on memory per job. */
const MAX_INPUT_SIDE = 4096;
/** ThumbHash encodes at most 100×100 pixels. */
const PLACEHOLDER_SIDE = 100;
const WEBP_QUALITY = 80;

export interface ProcessedRendition {
  width: number;
  height: number;
  body: Buffer;
}

export interface ProcessedImage {
  /** The original re-encoded as PNG: metadata (EXIF, text chunks with generation parameters) dropped. */
  png: Buffer;
  width: number;
  height: number;
  /** WebP renditions at each width of the fixed ladder the original reaches. */
  renditions: ProcessedRendition[];
  /** ThumbHash of the picture, base64. */
  placeholder: string;
}

export class InvalidImageError extends Error {}

/** Decodes a provider's picture once and produces everything stored for it. */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  let metadata: Metadata;
  try {
    metadata = await sharp(input).metadata();
  } catch {
    throw new InvalidImageError('The picture could not be decoded');
  }
  const { width, height } = metadata;
  if (!width || !height) throw new InvalidImageError('The picture has no size');
  if (width > MAX_INPUT_SIDE || height > MAX_INPUT_SIDE) throw new InvalidImageError(`The picture is larger than ${MAX_INPUT_SIDE} pixels`);

  const source = sharp(input, { limitInputPixels: MAX_INPUT_SIDE * MAX_INPUT_SIDE }).rotate();
  const png = await source.clone().png({ compressionLevel: 6 }).toBuffer();
  const renditions = await Promise.all(
    RENDITION_WIDTHS.filter((rung) => rung <= width).map(async (target) => {
      const { data, info } = await source
        .clone()
        .resize({ width: target })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer({ resolveWithObject: true });
      return { width: info.width, height: info.height, body: data };
    }),
  );
  const small = await source
    .clone()
    .resize({ width: PLACEHOLDER_SIDE, height: PLACEHOLDER_SIDE, fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const hash = rgbaToThumbHash(small.info.width, small.info.height, small.data);
  return { png, width, height, renditions, placeholder: Buffer.from(hash).toString('base64') };
}
