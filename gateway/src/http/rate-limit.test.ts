import { SlidingWindowLimiter } from './rate-limit';

describe('SlidingWindowLimiter', () => {
  it('allows `limit` events per key in the window, then refuses with the seconds until the oldest leaves it', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(3, 60_000, 'Too many', () => now);
    for (let i = 0; i < 3; i++) limiter.take('1.2.3.4');
    limiter.take('5.6.7.8');
    now = 15_000;
    expect(() => limiter.take('1.2.3.4')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 45 } }));
    now = 60_001;
    expect(() => limiter.take('1.2.3.4')).not.toThrow();
  });
});
