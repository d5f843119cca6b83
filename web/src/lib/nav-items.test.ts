import { isNavItemActive } from './nav-items';

describe('isNavItemActive', () => {
  it('marks Home only on the exact root path', () => {
    expect(isNavItemActive('/', '/')).toBe(true);
    expect(isNavItemActive('/', '/chat')).toBe(false);
  });

  it('marks other links by path prefix', () => {
    expect(isNavItemActive('/chat', '/chat')).toBe(true);
    expect(isNavItemActive('/chat', '/chat/42')).toBe(true);
    expect(isNavItemActive('/gallery', '/chat/42')).toBe(false);
  });
});
