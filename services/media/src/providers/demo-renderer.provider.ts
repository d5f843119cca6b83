import { createHash } from 'node:crypto';
import { MEDIA_LIMITS } from '@app/schema';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { type ImageProvider, ImageProviderError, type ImageRequest, type ImageResult } from './image-provider';

export const DEMO_RENDERER_MODEL = 'demo-renderer';
const STEPS = 10;

/** A seeded generator (mulberry32): the same prompt, settings and seed always draw the same picture. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The SVG of a deterministic abstract composition: a gradient field, soft orbs and bands. */
export function demoSvg(prompt: string, width: number, height: number, vivid: boolean, detailed: boolean): string {
  const digest = createHash('sha256').update(prompt.toLowerCase()).digest();
  const random = seededRandom(digest.readUInt32BE(0));
  const saturation = vivid ? 78 : 32;
  const lightness = vivid ? 55 : 62;
  const baseHue = Math.floor(random() * 360);
  const hue = (offset: number) => (baseHue + offset + Math.floor(random() * 40)) % 360;
  const colour = (offset: number, alpha = 1) => `hsla(${hue(offset)}, ${saturation}%, ${lightness}%, ${alpha.toFixed(2)})`;
  const shapes: string[] = [];
  const orbs = detailed ? 18 : 9;
  for (let i = 0; i < orbs; i++) {
    const r = (0.08 + random() * 0.3) * Math.min(width, height);
    shapes.push(
      `<circle cx="${(random() * width).toFixed(1)}" cy="${(random() * height).toFixed(1)}" r="${r.toFixed(1)}" fill="${colour(60 + i * 23, 0.35 + random() * 0.4)}" filter="url(#soft)"/>`,
    );
  }
  const bands = detailed ? 6 : 3;
  for (let i = 0; i < bands; i++) {
    const y = random() * height;
    const sway = (random() - 0.5) * height * 0.6;
    shapes.push(
      `<path d="M0 ${y.toFixed(1)} C ${(width / 3).toFixed(1)} ${(y + sway).toFixed(1)}, ${((2 * width) / 3).toFixed(1)} ${(y - sway).toFixed(1)}, ${width} ${(y + sway / 2).toFixed(1)}" stroke="${colour(180 + i * 37, 0.55)}" stroke-width="${(8 + random() * 40).toFixed(1)}" fill="none" stroke-linecap="round"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs>
<linearGradient id="field" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colour(0)}"/><stop offset="1" stop-color="${colour(140)}"/></linearGradient>
<filter id="soft"><feGaussianBlur stdDeviation="${(Math.min(width, height) / 40).toFixed(1)}"/></filter>
</defs>
<rect width="${width}" height="${height}" fill="url(#field)"/>
${shapes.join('\n')}
</svg>`;
}

/**
 * The offline demo renderer used when no image provider is configured: it draws an abstract picture
 * seeded by the prompt and the seed, in steps so progress can be shown. It is not AI and is always labelled a demo.
 */
/** The seed the demo uses when none is asked for: a digest of the prompt (any case) and style, within the API's range. */
function promptSeed(prompt: string, style: string): number {
  const digest = createHash('sha256').update(`${prompt.toLowerCase()}\u0000${style}`).digest();
  return digest.readUInt32BE(0) % (MEDIA_LIMITS.seedMax + 1);
}

export class DemoRendererProvider implements ImageProvider {
  readonly kind = 'demo';
  readonly model = DEMO_RENDERER_MODEL;
  readonly isDemo = true;
  /** Only the seed: the same seed and prompt draw the same picture, as with a real model. */
  readonly advanced = ['seed'] as const;

  constructor(private readonly stepDelayMs = 150) {}

  async samplers(): Promise<string[]> {
    return [];
  }

  async generate({ prompt, settings, signal, onProgress }: ImageRequest): Promise<ImageResult> {
    // No seed asked for: one derived from the prompt and style, so the same prompt still draws the same picture (which
    // blocking a removed picture by its hash relies on), and reported, so "Use these settings" repeats it.
    const seed = settings.seed ?? promptSeed(prompt, settings.style);
    const [width, height] = settings.size.split('x').map(Number) as [number, number];
    for (let step = 1; step <= STEPS; step++) {
      if (signal?.aborted) throw new ImageProviderError('CANCELLED', 'The generation was cancelled');
      if (this.stepDelayMs > 0) await sleep(this.stepDelayMs, undefined, { signal }).catch(() => undefined);
      if (signal?.aborted) throw new ImageProviderError('CANCELLED', 'The generation was cancelled');
      onProgress?.(step / STEPS);
    }
    const svg = demoSvg(
      `${prompt}\u0000${settings.style}\u0000${seed}`,
      width,
      height,
      settings.style === 'vivid',
      settings.quality === 'hd',
    );
    const image = await sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
    return { image, model: DEMO_RENDERER_MODEL, seed };
  }
}
