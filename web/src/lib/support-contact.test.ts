import { type MailClientEnvironment, supportMailto, watchMailClientLaunch } from './support-contact';

const messages = {
  copied: (address: string) => `Copied ${address}`,
  manual: (address: string) => `Write to ${address}`,
};

function fakeEnvironment({ active = true, copies = true } = {}) {
  const listeners = new Set<() => void>();
  let scheduled: (() => void) | null = null;
  const env: MailClientEnvironment & { alerts: string[]; copied: string[]; leave(): void; fire(): void; delays: number[] } = {
    alerts: [],
    copied: [],
    delays: [],
    onPageLeft(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isPageActive: () => active,
    schedule(callback, ms) {
      scheduled = callback;
      env.delays.push(ms);
    },
    async copyText(text) {
      if (copies) env.copied.push(text);
      return copies;
    },
    alert(message) {
      env.alerts.push(message);
    },
    leave: () => listeners.forEach((listener) => listener()),
    fire: () => scheduled?.(),
  };
  return env;
}

describe('support contact', () => {
  it('builds the mailto link', () => {
    expect(supportMailto('help@example.com')).toBe('mailto:help@example.com');
  });

  it('does nothing more when the mail client took the focus', async () => {
    const env = fakeEnvironment();
    const outcome = watchMailClientLaunch('help@example.com', messages, env);
    env.leave();
    env.fire();
    await expect(outcome).resolves.toBe('mail-client');
    expect(env.alerts).toEqual([]);
    expect(env.copied).toEqual([]);
    expect(env.delays).toEqual([1000]);
  });

  it('does nothing more when the page is no longer visible or focused', async () => {
    const env = fakeEnvironment({ active: false });
    const outcome = watchMailClientLaunch('help@example.com', messages, env);
    env.fire();
    await expect(outcome).resolves.toBe('mail-client');
    expect(env.alerts).toEqual([]);
  });

  it('copies the address and alerts it when the page kept the focus', async () => {
    const env = fakeEnvironment();
    const outcome = watchMailClientLaunch('help@example.com', messages, env);
    env.fire();
    await expect(outcome).resolves.toBe('copied');
    expect(env.copied).toEqual(['help@example.com']);
    expect(env.alerts).toEqual(['Copied help@example.com']);
  });

  it('still shows the address when copying fails', async () => {
    const env = fakeEnvironment({ copies: false });
    const outcome = watchMailClientLaunch('help@example.com', messages, env);
    env.fire();
    await expect(outcome).resolves.toBe('shown');
    expect(env.alerts).toEqual(['Write to help@example.com']);
  });
});
