import { isNavItemActive, navItemsFor } from './nav-items';

describe('isNavItemActive', () => {
  it('marks Home only on the exact root path', () => {
    expect(isNavItemActive('/', '/')).toBe(true);
    expect(isNavItemActive('/', '/chat')).toBe(false);
  });

  it('marks other links by path prefix', () => {
    expect(isNavItemActive('/chat', '/chat')).toBe(true);
    expect(isNavItemActive('/chat', '/chat/42')).toBe(true);
    expect(isNavItemActive('/gallery', '/chat/42')).toBe(false);
    expect(isNavItemActive('/moderation', '/moderation/audit')).toBe(true);
  });

  it('matches whole path segments, not a longer path that starts with the same letters', () => {
    expect(isNavItemActive('/generator', '/generatorX')).toBe(false);
    expect(isNavItemActive('/generator', '/generator-old/1')).toBe(false);
    expect(isNavItemActive('/generator', '/generator')).toBe(true);
    expect(isNavItemActive('/generator', '/generator/jobs')).toBe(true);
  });
});

describe('navItemsFor', () => {
  const hrefs = (role: Parameters<typeof navItemsFor>[0]) => navItemsFor(role).map((item) => item.href);

  it('shows Moderation to moderators and admins only', () => {
    expect(hrefs('MEMBER')).toEqual(['/', '/chat', '/stories', '/generator', '/characters', '/gallery']);
    expect(hrefs('MODERATOR')).toEqual(['/', '/chat', '/stories', '/generator', '/characters', '/gallery', '/moderation']);
    expect(hrefs('ADMIN')).toContain('/moderation');
  });
});
