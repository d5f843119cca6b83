export interface NavItem {
  label: string;
  href: string;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Home', href: '/' },
  { label: 'Chat', href: '/chat' },
  { label: 'Generator', href: '/generator' },
  { label: 'Characters', href: '/characters' },
  { label: 'Gallery', href: '/gallery' },
];

/** Home is current only on exactly "/"; every other link by path prefix (spec §2). */
export function isNavItemActive(href: string, pathname: string): boolean {
  return href === '/' ? pathname === '/' : pathname.startsWith(href);
}
