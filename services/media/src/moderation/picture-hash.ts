import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** Two pictures whose dHashes differ in at most this many of 64 bits are the same picture: re-encoding, resizing or a light edit moves a few bits, unrelated pictures differ in about half. */
export const DHASH_MAX_DISTANCE = 10;
/** A dHash with fewer set (or unset) bits than this comes from a flat or plain-gradient picture, which looks like every other one: only its SHA-256 blocks. */
export const DHASH_MIN_DETAIL = 8;

export interface PictureHashes {
  /** SHA-256 (hex) of the stored original: the very same file. */
  sha256: string;
  /** 64-bit difference hash: the same picture after re-encoding, resizing or a slight edit. */
  dhash: bigint;
}

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** dHash: the picture in grey at 9×8, one bit per pair of horizontal neighbours (set when the left one is brighter). */
export async function differenceHash(bytes: Buffer): Promise<bigint> {
  const { data, info } = await sharp(bytes)
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(9, 8, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  let hash = 0n;
  for (let row = 0; row < 8; row++) {
    for (let column = 0; column < 8; column++) {
      const left = data[(row * 9 + column) * channels]!;
      const right = data[(row * 9 + column + 1) * channels]!;
      hash = (hash << 1n) | (left > right ? 1n : 0n);
    }
  }
  return hash;
}

export async function hashPicture(bytes: Buffer): Promise<PictureHashes> {
  return { sha256: sha256Hex(bytes), dhash: await differenceHash(bytes) };
}

const countBits = (value: bigint): number => {
  let count = 0;
  for (let rest = BigInt.asUintN(64, value); rest > 0n; rest >>= 1n) count += Number(rest & 1n);
  return count;
};

export const hammingDistance = (a: bigint, b: bigint): number => countBits(a ^ b);

/** Whether the dHash tells this picture apart from plain ones (see DHASH_MIN_DETAIL). */
export const isDistinctive = (dhash: bigint): boolean => {
  const bits = countBits(dhash);
  return bits >= DHASH_MIN_DETAIL && bits <= 64 - DHASH_MIN_DETAIL;
};

/** PostgreSQL's bigint is signed: the same 64 bits, as the decimal text both drivers pass without losing precision. */
export const dhashToSql = (dhash: bigint): string => BigInt.asIntN(64, dhash).toString();
export const dhashFromSql = (text: string): bigint => BigInt.asUintN(64, BigInt(text));
