import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, UPLOAD_MAX_BYTES } from '@app/schema';
import sharp, { type SharpOptions } from 'sharp';

/** Header dimensions are bounded before anything is decoded, so a small file cannot claim a huge picture (a pixel flood). */
export const MAX_PHOTO_SIDE = 8192;
export const MAX_PHOTO_PIXELS = 40_000_000;
const THUMB_SIDE = 256;

export type PhotoFormat = 'jpeg' | 'png';

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const invalidImage = () => new AppError('INVALID_IMAGE', 'The photo could not be read, or it has too many pixels.');
const wrongType = () => new AppError('UNSUPPORTED_MEDIA_TYPE', 'Only JPG and PNG photos are accepted.');
export const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'Each photo must be at most 10 MB.');

/**
 * Decoding reads the file in order (PNG and JPEG stream through libvips a band at a time instead of whole) and never
 * past the pixel bound; a truncated or corrupt file fails instead of being padded.
 */
const decoding: SharpOptions = { sequentialRead: true, limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'error' };

/** What the bytes are, whatever name or type the browser gave them: JPEG and PNG only. */
export function sniffPhotoFormat(head: Buffer): PhotoFormat {
  if (head.length >= JPEG_MAGIC.length && head.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) return 'jpeg';
  if (head.length >= PNG_MAGIC.length && head.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return 'png';
  throw wrongType();
}

/**
 * Copies an upload to `file` as it arrives, counting its bytes (413 past the limit) and reading its magic bytes from the
 * first chunks (415 for anything but JPEG or PNG, before the rest is read). Never holds more than a chunk.
 */
export async function receivePhoto(source: Readable, file: string): Promise<{ format: PhotoFormat; bytes: number }> {
  let bytes = 0;
  let format: PhotoFormat | null = null;
  let head = Buffer.alloc(0);
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        bytes += chunk.length;
        if (bytes > UPLOAD_MAX_BYTES) throw tooLarge();
        if (!format) {
          head = Buffer.concat([head, chunk]);
          if (head.length >= PNG_MAGIC.length) format = sniffPhotoFormat(head);
        }
        yield chunk;
      }
      format ??= sniffPhotoFormat(head);
    },
    createWriteStream(file),
  );
  return { format: format!, bytes };
}

/** The header's format and dimensions (sharp reads the header only), bounded before any decoding. */
export async function checkPhotoHeader(file: string, format: PhotoFormat): Promise<{ width: number; height: number }> {
  const metadata = await sharp(file, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw invalidImage();
    });
  const { width, height } = metadata;
  if (metadata.format !== format || !width || !height) throw invalidImage();
  if (width > MAX_PHOTO_SIDE || height > MAX_PHOTO_SIDE || width * height > MAX_PHOTO_PIXELS) throw invalidImage();
  return { width, height };
}

/**
 * The picture turned upright by its EXIF orientation, then written anew to `output` (JPEG stays JPEG, PNG stays PNG): no
 * EXIF, GPS, ICC or text chunks survive. The thumbnail is a small WebP. Decoded from the file, one band at a time.
 */
export async function reencodePhoto(
  file: string,
  format: PhotoFormat,
  output: string,
): Promise<{ width: number; height: number; bytes: number; thumb: Buffer }> {
  try {
    const upright = sharp(file, decoding).rotate();
    const info = await (format === 'jpeg' ? upright.jpeg({ quality: 90 }) : upright.png({ compressionLevel: 6 })).toFile(output);
    const thumb = await sharp(file, decoding)
      .rotate()
      .resize({ width: THUMB_SIDE, height: THUMB_SIDE, fit: 'inside' })
      .webp({ quality: 80 })
      .toBuffer();
    return { width: info.width, height: info.height, bytes: info.size, thumb };
  } catch {
    throw invalidImage();
  }
}

/** Square WebP renditions of a profile picture, centred; one after another, so one decoded picture is held at a time. */
export async function avatarRenditions(file: string, sizes: readonly number[]): Promise<{ size: number; body: Buffer }[]> {
  const renditions: { size: number; body: Buffer }[] = [];
  try {
    for (const size of sizes) {
      const body = await sharp(file, decoding)
        .rotate()
        .resize({ width: size, height: size, fit: 'cover' })
        .webp({ quality: 82 })
        .toBuffer();
      renditions.push({ size, body });
    }
    return renditions;
  } catch {
    throw invalidImage();
  }
}
