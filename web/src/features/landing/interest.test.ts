import { trackEvent } from '../../lib/analytics';
import { INTEREST_ENDPOINT, recordInterest } from './interest';

jest.mock('../../lib/analytics', () => ({ trackEvent: jest.fn() }));

const trackEventMock = jest.mocked(trackEvent);

describe('recordInterest', () => {
  beforeEach(() => trackEventMock.mockClear());

  it('tracks an analytics event and POSTs the interest as JSON with credentials and keepalive', () => {
    const fetchMock = jest.fn().mockResolvedValue(new Response(null, { status: 204 }));
    recordInterest('vip_subscribe', 'vip-premium', fetchMock);
    expect(trackEventMock).toHaveBeenCalledWith('interest', 'vip_subscribe:vip-premium');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(INTEREST_ENDPOINT);
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', keepalive: true });
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual({ kind: 'vip_subscribe', label: 'vip-premium' });
  });

  it('ignores a failing request', async () => {
    const fetchMock = jest.fn().mockRejectedValue(new TypeError('offline'));
    expect(() => recordInterest('feature', 'self-ai', fetchMock)).not.toThrow();
    await Promise.resolve();
    const throwing = jest.fn(() => {
      throw new Error('blocked');
    });
    expect(() => recordInterest('feature', 'self-ai', throwing)).not.toThrow();
    expect(trackEventMock).toHaveBeenCalledTimes(2);
  });

  it('refuses labels the endpoint would reject', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fetchMock = jest.fn();
    recordInterest('feature', 'Self AI', fetchMock);
    recordInterest('feature', 'x'.repeat(65), fetchMock);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(trackEventMock).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
