import { Badge, Button, Card, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../../../auth/auth-context';
import { memberIdentity } from '../../../auth/member-identity';
import { UserAvatar } from '../../../components/user-avatar';
import { LOGOUT_PATH } from '../profile-api';

function formatJoined(iso: string, locale: string): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(date);
}

/** SPEC §2 Profile header: avatar, name (or e-mail), e-mail, joined date, badges, Edit Profile and Logout. */
export function ProfileHeader({ user, onEdit }: { user: CurrentUser; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const joined = formatJoined(user.createdAt, i18n.language);
  const identity = memberIdentity(user);
  return (
    <Card.Root variant="outline" bgGradient="to-br" gradientFrom="purple.950" gradientTo="bg" data-testid="profile-header">
      <Card.Body>
        <Flex gap="6" align={{ base: 'flex-start', md: 'center' }} direction={{ base: 'column', md: 'row' }}>
          <UserAvatar user={user} size="2xl" boxSize="24" data-testid="profile-avatar" />
          <Stack gap="1" flex="1" minW="0">
            <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="tight" data-testid="profile-name" wordBreak="break-word">
              {identity.name}
            </Heading>
            {identity.email && (
              <Text color="fg.muted" data-testid="profile-email" wordBreak="break-word">
                {identity.email}
              </Text>
            )}
            {joined && (
              <Text fontSize="sm" color="fg.muted" data-testid="profile-joined">
                {t('profile.joined', { date: joined })}
              </Text>
            )}
            <HStack gap="2" mt="2" flexWrap="wrap">
              <Badge colorPalette="purple" variant="solid">
                {t('profile.badges.proCreator')}
              </Badge>
              <Badge colorPalette="green" variant="subtle">
                {t('profile.badges.active')}
              </Badge>
            </HStack>
          </Stack>
          <HStack gap="3" flexWrap="wrap">
            <Button colorPalette="purple" onClick={onEdit}>
              {t('profile.editProfile')}
            </Button>
            <Button asChild variant="outline">
              <a href={LOGOUT_PATH}>{t('profile.logout')}</a>
            </Button>
          </HStack>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}
