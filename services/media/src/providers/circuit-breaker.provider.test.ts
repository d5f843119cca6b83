import { CircuitBreakerImageProvider } from './circuit-breaker.provider';
import { type ImageProvider, ImageProviderError, type ImageRequest } from './image-provider';

const settings = { size: '1024x1024', quality: 'standard', style: 'vivid' } as const;

describe('image provider circuit breaker', () => {
  it('opens after five outages in a row, refuses at once while open, and closes after a good trial call', async () => {
    let now = 0;
    let failWith: ImageProviderError | null = new ImageProviderError('UNAVAILABLE', 'down', 503, true);
    let calls = 0;
    const inner: ImageProvider = {
      kind: 'a1111',
      model: 'fake',
      isDemo: false,
      advanced: [],
      samplers: async () => [],
      generate: async () => {
        calls++;
        if (failWith) throw failWith;
        return { image: Buffer.from('png'), model: 'fake' };
      },
    };
    const provider = new CircuitBreakerImageProvider(inner, { failureThreshold: 5, cooldownMs: 30_000, clock: () => now });
    for (let i = 0; i < 5; i++) await expect(provider.generate({ prompt: 'x', settings })).rejects.toThrow('down');
    expect(provider.state).toBe('open');
    await expect(provider.generate({ prompt: 'x', settings })).rejects.toThrow('The image provider is unavailable right now');
    expect(calls).toBe(5);

    now = 30_000;
    failWith = null;
    await expect(provider.generate({ prompt: 'x', settings })).resolves.toMatchObject({ model: 'fake' });
    expect(provider.state).toBe('closed');
  });

  it('a refused prompt is not an outage', async () => {
    const inner: ImageProvider = {
      kind: 'a1111',
      model: 'fake',
      isDemo: false,
      advanced: [],
      samplers: async () => [],
      generate: async () => {
        throw new ImageProviderError('CONTENT_REJECTED', 'refused', 400);
      },
    };
    const provider = new CircuitBreakerImageProvider(inner, { failureThreshold: 2, cooldownMs: 30_000 });
    for (let i = 0; i < 4; i++) await expect(provider.generate({ prompt: 'x', settings })).rejects.toThrow('refused');
    expect(provider.state).toBe('closed');
  });

  it('forwards the advanced settings it honours, its samplers, and the seed it drew with', async () => {
    const requests: ImageRequest[] = [];
    const inner: ImageProvider = {
      kind: 'a1111',
      model: 'fake',
      isDemo: false,
      advanced: ['seed', 'sampler'],
      samplers: async () => ['Euler a', 'DPM++ 2M'],
      generate: async (request) => {
        requests.push(request);
        return { image: Buffer.from('png'), model: 'fake', seed: 77 };
      },
    };
    const provider = new CircuitBreakerImageProvider(inner, { failureThreshold: 2, cooldownMs: 30_000 });
    expect(provider.advanced).toEqual(['seed', 'sampler']);
    await expect(provider.samplers()).resolves.toEqual(['Euler a', 'DPM++ 2M']);
    await expect(provider.generate({ prompt: 'x', settings: { ...settings, seed: 77, sampler: 'Euler a' } })).resolves.toMatchObject({
      seed: 77,
    });
    expect(requests[0]?.settings).toMatchObject({ seed: 77, sampler: 'Euler a' });
  });
});
