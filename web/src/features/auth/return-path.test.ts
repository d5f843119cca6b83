import { authScreenKeepingNext, safeReturnPath, signInPathReturningTo } from './return-path';

const ORIGIN = 'https://velvet.example';

describe('the path a member returns to after signing in', () => {
  it('is the in-app path the visitor asked for, with its query and fragment', () => {
    expect(safeReturnPath('/gallery', ORIGIN)).toBe('/gallery');
    expect(safeReturnPath('/chat/abc?branch=2#m5', ORIGIN)).toBe('/chat/abc?branch=2#m5');
  });

  it('survives the round trip through the sign-in link', () => {
    const link = new URL(signInPathReturningTo('/stories/x?y=1&z=2'), ORIGIN);
    expect(link.pathname).toBe('/signin');
    expect(safeReturnPath(link.searchParams.get('next'), ORIGIN)).toBe('/stories/x?y=1&z=2');
  });

  it.each([
    ['missing', null],
    ['empty', ''],
    ['an absolute URL to another site', 'https://evil.example/gallery'],
    ['a protocol-relative URL', '//evil.example/gallery'],
    ['a backslash trick', '/\\evil.example'],
    ['a tab hidden in the slashes', '/\t/evil.example'],
    ['a script URL', 'javascript:alert(1)'],
    ['a relative path', 'gallery'],
    ['the sign-in screen itself', '/signin?next=/gallery'],
    ['a dot segment that leaves a protocol-relative path', '/.//evil.example'],
    ['a parent segment that leaves a protocol-relative path', '/a/..//evil.example'],
    ['an encoded dot segment', '/%2e//evil.example'],
  ])('is refused when %s', (_case, next) => {
    expect(safeReturnPath(next, ORIGIN)).toBeNull();
  });
});

describe('moving between sign-in and sign-up', () => {
  const origin = 'https://velvet.example';

  it('keeps the page to return to', () => {
    expect(authScreenKeepingNext('/signup', '/gallery?tab=mine', origin)).toBe('/signup?next=%2Fgallery%3Ftab%3Dmine');
    expect(authScreenKeepingNext('/signin', '/chat/abc', origin)).toBe('/signin?next=%2Fchat%2Fabc');
  });

  it('drops a return path that could lead off the site, or none at all', () => {
    expect(authScreenKeepingNext('/signup', '//evil.example/x', origin)).toBe('/signup');
    expect(authScreenKeepingNext('/signin', null, origin)).toBe('/signin');
  });
});
