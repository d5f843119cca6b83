import { setTimeout as sleep } from 'node:timers/promises';
import { ADVANCED_IMAGE_SETTINGS, type AdvancedImageSetting } from '@app/schema';
import sharp from 'sharp';
import { type ImageProvider, ImageProviderError, type ImageRequest, type ImageResult } from '../src';

/** One scripted answer: how long each of its progress steps takes, and whether it fails instead. */
export interface ScriptedAnswer {
  steps?: number;
  stepDelayMs?: number;
  fail?: ImageProviderError;
  /** The picture to answer with, as given (otherwise a plain one of the requested size). */
  image?: Buffer;
}

/** A provider whose answers tests script in order; it draws a real PNG of the requested size. */
export class ScriptedImageProvider implements ImageProvider {
  // Stands in for a remote image server.
  readonly kind = 'a1111';
  readonly model = 'scripted-model';
  readonly isDemo = false;
  // Honours every advanced setting, like A1111 (tests narrow it to play a provider that honours fewer).
  advanced: readonly AdvancedImageSetting[] = ADVANCED_IMAGE_SETTINGS;
  samplerNames = ['Euler a', 'DPM++ 2M'];
  /** The seed it reports when the request names none (as A1111 reports the one it drew). */
  drawnSeed = 424242;
  answers: ScriptedAnswer[] = [];
  fallback: ScriptedAnswer = { steps: 3, stepDelayMs: 10 };
  calls: ImageRequest[] = [];
  /** Resolves when a generation has started (for tests that act mid-generation). */
  private startedWaiters: (() => void)[] = [];

  async samplers(): Promise<string[]> {
    return this.samplerNames;
  }

  started(): Promise<void> {
    return new Promise((resolve) => this.startedWaiters.push(resolve));
  }

  async generate(request: ImageRequest): Promise<ImageResult> {
    this.calls.push(request);
    const answer = this.answers.shift() ?? this.fallback;
    for (const waiter of this.startedWaiters.splice(0)) waiter();
    const steps = answer.steps ?? 3;
    for (let step = 1; step <= steps; step++) {
      await sleep(answer.stepDelayMs ?? 10, undefined, { signal: request.signal }).catch(() => undefined);
      if (request.signal?.aborted) throw new ImageProviderError('CANCELLED', 'cancelled');
      request.onProgress?.(step / steps);
    }
    if (answer.fail) throw answer.fail;
    const seed = request.settings.seed ?? this.drawnSeed;
    if (answer.image) return { image: answer.image, model: this.model, seed };
    const [width, height] = request.settings.size.split('x').map(Number) as [number, number];
    const image = await sharp({ create: { width, height, channels: 3, background: '#4a6fa5' } })
      .png()
      .toBuffer();
    return { image, model: this.model, seed };
  }
}
