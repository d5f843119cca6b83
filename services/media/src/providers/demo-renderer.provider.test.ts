import { MEDIA_LIMITS } from '@app/schema';
import sharp from 'sharp';
import { DemoRendererProvider } from './demo-renderer.provider';

const settings = { size: '1024x1024', quality: 'standard', style: 'vivid' } as const;

// Each picture is a full 1024x1024 SVG rendered by sharp: seconds on a busy two-core machine.
jest.setTimeout(30_000);

describe('demo renderer', () => {
  const demo = new DemoRendererProvider(0);

  it('honours only the seed, offers no samplers, and is labelled a demo', async () => {
    expect(demo).toMatchObject({ advanced: ['seed'], isDemo: true, model: 'demo-renderer' });
    await expect(demo.samplers()).resolves.toEqual([]);
  });

  it('draws the same picture for the same prompt (any case) and seed, another for another seed or prompt, in ten steps', async () => {
    const steps: number[] = [];
    const first = await demo.generate({
      prompt: 'A Quiet Harbour',
      settings: { ...settings, seed: 42 },
      onProgress: (fraction) => steps.push(fraction),
    });
    const again = await demo.generate({ prompt: 'a quiet harbour', settings: { ...settings, seed: 42 } });
    const otherSeed = await demo.generate({ prompt: 'A Quiet Harbour', settings: { ...settings, seed: 43 } });
    const otherPrompt = await demo.generate({ prompt: 'A loud market', settings: { ...settings, seed: 42 } });
    expect(first).toMatchObject({ seed: 42, model: 'demo-renderer' });
    expect(again.image.equals(first.image)).toBe(true);
    expect(otherSeed.image.equals(first.image)).toBe(false);
    expect(otherPrompt.image.equals(first.image)).toBe(false);
    expect(steps).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(await sharp(first.image).metadata()).toMatchObject({ format: 'png', width: 1024, height: 1024 });
  });

  it('derives the seed from the prompt when none is given, so a prompt keeps its picture, and reports it', async () => {
    const drawn = await demo.generate({ prompt: 'A quiet harbour', settings });
    const again = await demo.generate({ prompt: 'a quiet HARBOUR', settings });
    const other = await demo.generate({ prompt: 'A loud market', settings });
    expect(Number.isInteger(drawn.seed)).toBe(true);
    expect(drawn.seed).toBeGreaterThanOrEqual(0);
    expect(drawn.seed).toBeLessThanOrEqual(MEDIA_LIMITS.seedMax);
    expect(again).toMatchObject({ seed: drawn.seed });
    expect(again.image.equals(drawn.image)).toBe(true);
    expect(other.seed).not.toBe(drawn.seed);
    const repeated = await demo.generate({ prompt: 'A quiet harbour', settings: { ...settings, seed: drawn.seed } });
    expect(repeated.image.equals(drawn.image)).toBe(true);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const pending = new DemoRendererProvider(50).generate({ prompt: 'slow', settings, signal: controller.signal });
    setTimeout(() => controller.abort(), 60);
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
