import { getDisplayName } from '../lib/avatar-initial';

/**
 * What names a member on screen: their name, and the e-mail beneath it only when the name is not already the e-mail
 * (a member with no name is shown by e-mail once, not twice).
 */
export function memberIdentity(user: { firstName?: string | null; lastName?: string | null; email: string }): {
  name: string;
  email: string | null;
} {
  const name = getDisplayName(user);
  return { name, email: name === user.email ? null : user.email };
}
