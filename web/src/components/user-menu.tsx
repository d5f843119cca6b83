import { Box, Menu, Portal, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useAuth, useCurrentUser } from '../auth/auth-context';
import { memberIdentity } from '../auth/member-identity';
import { isApiDocsEnabled } from '../lib/app-config';
import { canOperate } from '../features/operator/operator';
import { ContentPreferencesDialog } from '../features/moderation/components/content-preferences-dialog';
import { UserAvatar } from './user-avatar';

export function UserMenu() {
  const user = useCurrentUser();
  const { signOut } = useAuth();
  const { t } = useTranslation();
  const [preferencesOpen, setPreferencesOpen] = useState(false);
  const identity = memberIdentity(user);

  return (
    <>
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger aria-label={t('userMenu.label')} rounded="full" cursor="pointer" focusRingColor="purple.400">
          {/* Decorative: the button is named "Account menu"; a visible initial outside that name would
            break WCAG 2.5.3 (label in name), so assistive technology does not get the initial. */}
          <UserAvatar user={user} size="sm" aria-hidden="true" />
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="56">
              <Box px="2" py="1.5">
                <Text fontWeight="medium" data-testid="user-menu-name">
                  {identity.name}
                </Text>
                {identity.email && (
                  <Text fontSize="sm" color="fg.muted" data-testid="user-menu-email">
                    {identity.email}
                  </Text>
                )}
              </Box>
              <Menu.Separator />
              <Menu.Item value="profile" asChild>
                <RouterLink to="/profile">{t('userMenu.profile')}</RouterLink>
              </Menu.Item>
              <Menu.Item value="content-preferences" onSelect={() => setPreferencesOpen(true)}>
                {t('userMenu.contentPreferences')}
              </Menu.Item>
              <Menu.Item value="access-tokens" asChild>
                <RouterLink to="/settings/tokens">{t('userMenu.accessTokens')}</RouterLink>
              </Menu.Item>
              {isApiDocsEnabled() && (
                <Menu.Item value="developers" asChild>
                  <RouterLink to="/developers">{t('developers.link')}</RouterLink>
                </Menu.Item>
              )}
              {canOperate(user.role) && (
                <Menu.Item value="operator" asChild>
                  <RouterLink to="/operator">{t('userMenu.operator')}</RouterLink>
                </Menu.Item>
              )}
              <Menu.Item value="logout" onSelect={() => void signOut()}>
                {t('userMenu.logOut')}
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      <ContentPreferencesDialog open={preferencesOpen} onClose={() => setPreferencesOpen(false)} />
    </>
  );
}
