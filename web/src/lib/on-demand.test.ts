import { onDemand } from './on-demand';

describe('onDemand', () => {
  it('imports once for every caller, and again after a failure', async () => {
    let calls = 0;
    let fail = true;
    const menu = onDemand(() => {
      calls += 1;
      return fail ? Promise.reject(new Error('chunk missing')) : Promise.resolve({ default: 'the menu' });
    });
    expect(menu.loaded()).toBeUndefined();
    const [first, second] = await Promise.allSettled([menu.load(), menu.load()]);
    expect([first.status, second.status, calls]).toEqual(['rejected', 'rejected', 1]);

    fail = false;
    await expect(menu.load()).resolves.toBe('the menu');
    await expect(menu.load()).resolves.toBe('the menu');
    expect([menu.loaded(), calls]).toEqual(['the menu', 2]);
  });
});
