import type { ParseKeys } from 'i18next';

export interface NavItem {
  /** Translation key of the link text (en: Home, Chat, Generator, Characters, Gallery). */
  labelKey: ParseKeys;
  href: string;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { labelKey: 'nav.home', href: '/' },
  { labelKey: 'nav.chat', href: '/chat' },
  { labelKey: 'nav.generator', href: '/generator' },
  { labelKey: 'nav.characters', href: '/characters' },
  { labelKey: 'nav.gallery', href: '/gallery' },
];

/** Home is current only on exactly "/"; every other link by path prefix (spec §2). */
export function isNavItemActive(href: string, pathname: string): boolean {
  return href === '/' ? pathname === '/' : pathname.startsWith(href);
}
