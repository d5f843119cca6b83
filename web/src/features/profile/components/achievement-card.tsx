import { Badge, Card, Heading, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { AchievementFieldsFragment } from '../../../gql/graphql';
import { achievementPercent } from '../profile-stats';

function formatDay(iso: string | null | undefined, locale: string): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(date);
}

/** One achievement: Earned (with its day) or Locked (with the progress towards it). */
export function AchievementCard({ achievement }: { achievement: AchievementFieldsFragment }) {
  const { t, i18n } = useTranslation();
  const { key, earned, progress, threshold } = achievement;
  const earnedOn = formatDay(achievement.earnedAt, i18n.language);
  return (
    <Card.Root
      variant="outline"
      borderColor={earned ? 'purple.500' : undefined}
      opacity={earned ? 1 : 0.85}
      data-testid="achievement"
      data-key={key}
      data-earned={earned ? 'true' : 'false'}
    >
      <Card.Body gap="3">
        <HStack justify="space-between" align="flex-start" gap="3">
          <Stack gap="1">
            <Heading as="h3" size="sm">
              {t(`achievements.items.${key}.name`)}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {t(`achievements.items.${key}.description`)}
            </Text>
          </Stack>
          <Badge colorPalette={earned ? 'purple' : 'gray'} variant={earned ? 'solid' : 'outline'} data-testid="achievement-state">
            {earned ? t('achievements.earned') : t('achievements.locked')}
          </Badge>
        </HStack>
        {earned ? (
          earnedOn && (
            <Text fontSize="xs" color="fg.muted">
              {t('achievements.earnedOn', { date: earnedOn })}
            </Text>
          )
        ) : (
          <Progress.Root value={achievementPercent(progress, threshold)} size="xs" colorPalette="purple">
            <HStack justify="flex-end" mb="1">
              <Progress.Label srOnly>{t(`achievements.items.${key}.name`)}</Progress.Label>
              <Text fontSize="xs" color="fg.muted" data-testid="achievement-progress">
                {t('achievements.progress', { progress: Math.min(progress, threshold), threshold })}
              </Text>
            </HStack>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        )}
      </Card.Body>
    </Card.Root>
  );
}
