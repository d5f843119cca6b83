import sharp from 'sharp';
import { InvalidImageError, processImage } from './renditions';

describe('processImage', () => {
  it('stores a metadata-free PNG, WebP renditions on the ladder and a ThumbHash', async () => {
    const input = await sharp({ create: { width: 1792, height: 1024, channels: 3, background: '#884422' } })
      .withMetadata({ exif: { IFD0: { Copyright: 'secret camera owner' } } })
      .png()
      .toBuffer();
    expect(input.includes(Buffer.from('secret camera owner'))).toBe(true);
    const processed = await processImage(input);
    expect(processed.png.includes(Buffer.from('secret camera owner'))).toBe(false);
    expect([processed.width, processed.height]).toEqual([1792, 1024]);
    expect(processed.renditions.map(({ width, height }) => [width, height])).toEqual([
      [256, 146],
      [512, 293],
      [1024, 585],
    ]);
    for (const rendition of processed.renditions) expect((await sharp(rendition.body).metadata()).format).toBe('webp');
    expect(Buffer.from(processed.placeholder, 'base64').length).toBeGreaterThan(5);
  });

  it('keeps only the rungs a narrower picture reaches', async () => {
    const input = await sharp({ create: { width: 768, height: 1344, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    expect((await processImage(input)).renditions.map((rendition) => rendition.width)).toEqual([256, 512]);
  });

  it('refuses bytes that are not a picture, and pictures over 4096 pixels a side', async () => {
    await expect(processImage(Buffer.from('not an image'))).rejects.toBeInstanceOf(InvalidImageError);
    const huge = await sharp({ create: { width: 5000, height: 10, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    await expect(processImage(huge)).rejects.toThrow('larger than 4096');
  });
});
