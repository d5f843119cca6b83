export interface AvatarUser {
  firstName?: string | null;
  email?: string | null;
}

/** Letter shown in the avatar when there is no profile image: first name, else e-mail, else "U". */
export function getAvatarInitial(user: AvatarUser | null | undefined): string {
  const source = user?.firstName?.trim() || user?.email?.trim() || '';
  const first = Array.from(source)[0];
  return first ? first.toUpperCase() : 'U';
}

/** Full name when either part is present, otherwise the e-mail (spec: avatar menu and profile). */
export function getDisplayName(user: { firstName?: string | null; lastName?: string | null; email: string }): string {
  const fullName = [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return fullName || user.email;
}
