import type { ParseKeys } from 'i18next';
import type { Role } from '../gql/graphql';
import { canModerate } from '../features/moderation/moderation';

export interface NavItem {
  /** Translation key of the link text (en: Home, Chat, Stories, Generator, Characters, Gallery, Moderation). */
  labelKey: ParseKeys;
  href: string;
  /** Shown to moderators and admins only. */
  moderatorsOnly?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { labelKey: 'nav.home', href: '/' },
  { labelKey: 'nav.chat', href: '/chat' },
  { labelKey: 'nav.stories', href: '/stories' },
  { labelKey: 'nav.generator', href: '/generator' },
  { labelKey: 'nav.characters', href: '/characters' },
  { labelKey: 'nav.gallery', href: '/gallery' },
  { labelKey: 'nav.moderation', href: '/moderation', moderatorsOnly: true },
];

/** The links a member with `role` sees: Moderation only for moderators and admins. */
export function navItemsFor(role: Role | null | undefined): readonly NavItem[] {
  return NAV_ITEMS.filter((item) => !item.moderatorsOnly || canModerate(role));
}

/** Home is current only on exactly "/"; every other link on its own path and below it, by whole segments (spec §2). */
export function isNavItemActive(href: string, pathname: string): boolean {
  if (href === '/') return pathname === '/';
  return pathname === href || pathname.startsWith(`${href}/`);
}
