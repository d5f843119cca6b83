import sharp from 'sharp';
import { DemoRendererProvider } from '../providers/demo-renderer.provider';
import {
  DHASH_MAX_DISTANCE,
  differenceHash,
  dhashFromSql,
  dhashToSql,
  hammingDistance,
  hashPicture,
  isDistinctive,
  sha256Hex,
} from './picture-hash';

const demo = new DemoRendererProvider(0);
const draw = async (prompt: string) =>
  (await demo.generate({ prompt, settings: { size: '1024x1024', quality: 'standard', style: 'vivid' } })).image;

describe('picture hashes', () => {
  let lighthouse: Buffer;
  let fox: Buffer;
  beforeAll(async () => {
    [lighthouse, fox] = await Promise.all([draw('A lighthouse in the fog'), draw('A red fox in the snow')]);
  });

  it('the same picture re-encoded, resized or slightly brightened stays within the threshold', async () => {
    const original = await differenceHash(lighthouse);
    const copies = {
      jpeg: await sharp(lighthouse).jpeg({ quality: 70 }).toBuffer(),
      webp: await sharp(lighthouse).resize(512).webp({ quality: 60 }).toBuffer(),
      smaller: await sharp(lighthouse).resize(300).png().toBuffer(),
      brighter: await sharp(lighthouse).modulate({ brightness: 1.1 }).png().toBuffer(),
    };
    for (const [name, copy] of Object.entries(copies)) {
      expect({ name, close: hammingDistance(original, await differenceHash(copy)) <= DHASH_MAX_DISTANCE }).toEqual({ name, close: true });
    }
    // Only the very same file has the same SHA-256.
    expect(sha256Hex(copies.jpeg)).not.toBe(sha256Hex(lighthouse));
    expect((await hashPicture(lighthouse)).sha256).toBe(sha256Hex(Buffer.from(lighthouse)));
  });

  it('two different pictures are far apart', async () => {
    const distance = hammingDistance(await differenceHash(lighthouse), await differenceHash(fox));
    expect(distance).toBeGreaterThan(2 * DHASH_MAX_DISTANCE);
  });

  it('a plain picture has no detail to compare; a drawn one has', async () => {
    const plain = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#4a6fa5' } })
      .png()
      .toBuffer();
    expect(isDistinctive(await differenceHash(plain))).toBe(false);
    expect(isDistinctive(await differenceHash(lighthouse))).toBe(true);
  });

  it('counts differing bits over all 64, and survives the round trip through a signed bigint column', () => {
    expect(hammingDistance(0n, 0xffff_ffff_ffff_ffffn)).toBe(64);
    expect(hammingDistance(0b1011n, 0b0001n)).toBe(2);
    for (const hash of [0n, 1n, 0x8000_0000_0000_0000n, 0xffff_ffff_ffff_ffffn, 0x1234_5678_9abc_def0n]) {
      expect(dhashFromSql(dhashToSql(hash))).toBe(hash);
    }
    expect(dhashToSql(0xffff_ffff_ffff_ffffn)).toBe('-1');
  });
});
