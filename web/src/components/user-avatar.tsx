import { Avatar, type AvatarRootProps } from '@chakra-ui/react';
import type { CurrentUser } from '../auth/auth-context';
import { getAvatarInitial } from '../lib/avatar-initial';

/** Profile image, else the first letter of the first name, else of the e-mail, else "U". */
export function UserAvatar({
  user,
  ...props
}: {
  user: Pick<CurrentUser, 'firstName' | 'email' | 'profileImageUrl'>;
} & AvatarRootProps) {
  return (
    <Avatar.Root colorPalette="purple" {...props}>
      <Avatar.Fallback data-testid="avatar-initial">{getAvatarInitial(user)}</Avatar.Fallback>
      {user.profileImageUrl && <Avatar.Image src={user.profileImageUrl} alt="" />}
    </Avatar.Root>
  );
}
