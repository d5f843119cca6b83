import { firstScreen, SCREEN_LOADERS } from './screen-loaders';

describe('firstScreen', () => {
  it('names the signed-out screen a path shows', () => {
    expect(firstScreen('/')).toBe('landing');
    expect(firstScreen('')).toBe('landing');
    expect(firstScreen('/signin')).toBe('signIn');
    expect(firstScreen('/signup/')).toBe('signUp');
    expect(firstScreen('/tos')).toBe('tos');
    expect(firstScreen('/privacy')).toBe('privacy');
    expect(firstScreen('/takedown/')).toBe('takedown');
    expect(firstScreen('/relaunch')).toBe('relaunch');
  });

  it('names nothing for member or unknown paths', () => {
    for (const path of ['/chat', '/chat/123', '/profile', '/tos/extra', '/no-such-page', '/my-self-ai', '/moderation'])
      expect(firstScreen(path)).toBeUndefined();
  });

  it('has a loader for every screen', () => {
    for (const path of ['/', '/signin', '/signup', '/tos', '/privacy', '/takedown', '/relaunch'])
      expect(typeof SCREEN_LOADERS[firstScreen(path)!]).toBe('function');
  });
});
