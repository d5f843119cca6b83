import { PressureMonitor, type PressureLimits } from './load-shedding';

const limits = (overrides: Partial<PressureLimits>): PressureLimits => ({
  maxInFlight: 100,
  maxEventLoopDelayMs: 0,
  maxHeapUsedBytes: 0,
  maxRssBytes: 0,
  quietAddressRequestsPerSecond: 20,
  sampleIntervalMs: 20,
  ...overrides,
});

const sampled = () => new Promise((resolve) => setTimeout(resolve, 60));

describe('PressureMonitor', () => {
  const monitors: PressureMonitor[] = [];
  const monitor = (overrides: Partial<PressureLimits>) => {
    const created = new PressureMonitor(limits(overrides));
    monitors.push(created);
    return created;
  };
  afterAll(() => monitors.forEach((created) => created.close()));

  it('reports memory over its ceilings, and nothing when the checks are off', async () => {
    const heap = monitor({ maxHeapUsedBytes: 1 });
    const rss = monitor({ maxRssBytes: 1 });
    const relaxed = monitor({ maxHeapUsedBytes: Number.MAX_SAFE_INTEGER, maxRssBytes: Number.MAX_SAFE_INTEGER });
    const off = monitor({});
    await sampled();
    expect([heap.overloadReason(), rss.overloadReason(), relaxed.overloadReason(), off.overloadReason()]).toEqual([
      'heap',
      'rss',
      null,
      null,
    ]);
  });

  it('reports a loop turn running longer than the limit while it is still running', () => {
    const stalled = monitor({ maxEventLoopDelayMs: 50 });
    expect(stalled.overloadReason()).toBeNull();
    const until = Date.now() + 120;
    while (Date.now() < until) {
      // A synchronous stall, as a flood of fast requests makes one.
    }
    expect(stalled.overloadReason()).toBe('event-loop-delay');
  });
});
