import { Box, Button, Card, Heading, HStack, Link, Progress, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { AchievementFieldsFragment, ProfileQuery } from '../../../gql/graphql';
import { formatConversationDate } from '../../chat/chat-conversations';
import {
  MONTHLY_TARGETS,
  type ProfileStats,
  RECENT_ITEM_LIMIT,
  averageLikesPerImage,
  formatAverageLikes,
  formatRate,
  overviewAchievements,
  visibilityRatePercent,
} from '../profile-stats';
import { usagePercent } from '../../plans/plans';
import { ImageFrame } from '../../images/components/image-frame';
import { AchievementCard } from './achievement-card';

type StatKey = 'imagesGenerated' | 'chatMessages' | 'charactersCreated' | 'totalLikes' | 'publicImages' | 'averageLikes' | 'visibilityRate';

function StatTile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card.Root variant="outline" size="sm">
      <Card.Body gap="1">
        <Text fontSize="2xl" fontWeight="bold" data-testid={testId}>
          {value}
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {label}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

/** Quick stats (with the average and the rate worked out here) and up to four earned achievements. */
export function OverviewTab({
  stats,
  achievements,
  onShowAchievements,
}: {
  stats: ProfileStats;
  achievements: readonly AchievementFieldsFragment[];
  onShowAchievements: () => void;
}) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const missing = t('profile.stats.notAvailable');
  const tiles: { key: StatKey; value: string }[] = [
    { key: 'imagesGenerated', value: number(stats.imagesGenerated) },
    { key: 'chatMessages', value: number(stats.chatMessages) },
    { key: 'charactersCreated', value: number(stats.charactersCreated) },
    { key: 'totalLikes', value: number(stats.totalLikes) },
    { key: 'publicImages', value: number(stats.publicImages) },
    {
      key: 'averageLikes',
      value: formatAverageLikes(averageLikesPerImage(stats.totalLikes, stats.imagesGenerated), i18n.language, missing),
    },
    { key: 'visibilityRate', value: formatRate(visibilityRatePercent(stats.publicImages, stats.imagesGenerated), i18n.language, missing) },
  ];
  const earned = overviewAchievements(achievements);
  return (
    <Stack gap="8">
      <Box as="section" aria-labelledby="quick-stats-heading">
        <Heading as="h2" id="quick-stats-heading" size="md" mb="4">
          {t('profile.stats.heading')}
        </Heading>
        <SimpleGrid columns={{ base: 2, md: 4 }} gap="4">
          {tiles.map((tile) => (
            <StatTile key={tile.key} label={t(`profile.stats.${tile.key}`)} value={tile.value} testId={`stat-${tile.key}`} />
          ))}
        </SimpleGrid>
      </Box>
      <Box as="section" aria-labelledby="earned-heading" data-testid="overview-achievements">
        <HStack justify="space-between" mb="4" wrap="wrap">
          <Heading as="h2" id="earned-heading" size="md">
            {t('profile.overview.achievementsHeading')}
          </Heading>
          <Button variant="ghost" size="sm" onClick={onShowAchievements}>
            {t('profile.overview.viewAll')}
          </Button>
        </HStack>
        {earned.length === 0 ? (
          <Text color="fg.muted">{t('profile.overview.noAchievements')}</Text>
        ) : (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            {earned.map((achievement) => (
              <AchievementCard key={achievement.key} achievement={achievement} />
            ))}
          </SimpleGrid>
        )}
      </Box>
    </Stack>
  );
}

function TargetBar({ label, used, target, testId }: { label: string; used: number; target: number; testId: string }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  return (
    <Progress.Root value={usagePercent(used, target)} colorPalette="purple" data-testid={testId}>
      <HStack justify="space-between" mb="1.5">
        <Progress.Label>{label}</Progress.Label>
        <Text fontSize="sm" color="fg.muted" data-testid={`${testId}-value`}>
          {t('profile.statistics.usage', { used: number(used), limit: number(target) })}
        </Text>
      </HStack>
      <Progress.Track>
        <Progress.Range />
      </Progress.Track>
    </Progress.Root>
  );
}

/** SPEC §9: this month's images and chat messages against 100 and 1000. */
export function StatisticsTab({ imagesThisMonth, chatMessagesThisMonth }: { imagesThisMonth: number; chatMessagesThisMonth: number }) {
  const { t } = useTranslation();
  return (
    <Stack as="section" aria-labelledby="statistics-heading" gap="6">
      <Heading as="h2" id="statistics-heading" size="md">
        {t('profile.statistics.heading')}
      </Heading>
      <TargetBar label={t('profile.statistics.images')} used={imagesThisMonth} target={MONTHLY_TARGETS.images} testId="statistics-images" />
      <TargetBar
        label={t('profile.statistics.chatMessages')}
        used={chatMessagesThisMonth}
        target={MONTHLY_TARGETS.chatMessages}
        testId="statistics-chat"
      />
      <Text fontSize="sm" color="fg.muted">
        {t('profile.statistics.note', { images: MONTHLY_TARGETS.images, messages: MONTHLY_TARGETS.chatMessages })}
      </Text>
    </Stack>
  );
}

/** All six achievements, Earned or Locked. */
export function AchievementsTab({ achievements }: { achievements: readonly AchievementFieldsFragment[] }) {
  const { t } = useTranslation();
  const earnedCount = achievements.filter((achievement) => achievement.earned).length;
  return (
    <Stack as="section" aria-labelledby="achievements-heading" gap="4">
      <HStack justify="space-between" wrap="wrap">
        <Heading as="h2" id="achievements-heading" size="md">
          {t('profile.tabs.achievements')}
        </Heading>
        <Text color="fg.muted" data-testid="achievements-summary">
          {t('achievements.summary', { earned: earnedCount, total: achievements.length })}
        </Text>
      </HStack>
      <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4">
        {achievements.map((achievement) => (
          <AchievementCard key={achievement.key} achievement={achievement} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

type RecentImage = ProfileQuery['myImages']['nodes'][number];
type RecentConversation = ProfileQuery['conversations']['nodes'][number];

/** The five latest images (to the gallery) and the five latest conversations (each to its chat). */
export function RecentActivityTab({
  images,
  conversations,
}: {
  images: readonly RecentImage[];
  conversations: readonly RecentConversation[];
}) {
  const { t, i18n } = useTranslation();
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="8">
      <Box as="section" aria-labelledby="recent-images-heading" data-testid="recent-images">
        <HStack justify="space-between" mb="4">
          <Heading as="h2" id="recent-images-heading" size="md">
            {t('profile.activity.imagesHeading')}
          </Heading>
          <Link asChild fontSize="sm" color="purple.300">
            <RouterLink to="/gallery">{t('profile.activity.viewGallery')}</RouterLink>
          </Link>
        </HStack>
        {images.length === 0 ? (
          <Text color="fg.muted">{t('profile.activity.noImages')}</Text>
        ) : (
          <SimpleGrid as="ul" columns={{ base: 3, sm: 5 }} gap="3" listStyleType="none" m="0" p="0">
            {images.slice(0, RECENT_ITEM_LIMIT).map((image) => (
              <li key={image.id} data-testid="recent-image">
                <RouterLink to="/gallery" aria-label={image.prompt} title={image.prompt}>
                  <ImageFrame image={image} alt={image.prompt} sizes="120px" ratio={1} rounded="md" />
                </RouterLink>
              </li>
            ))}
          </SimpleGrid>
        )}
      </Box>
      <Box as="section" aria-labelledby="recent-conversations-heading" data-testid="recent-conversations">
        <Heading as="h2" id="recent-conversations-heading" size="md" mb="4">
          {t('profile.activity.conversationsHeading')}
        </Heading>
        {conversations.length === 0 ? (
          <Text color="fg.muted">{t('profile.activity.noConversations')}</Text>
        ) : (
          <Stack as="ul" gap="2" listStyleType="none" m="0" p="0">
            {conversations.slice(0, RECENT_ITEM_LIMIT).map((conversation) => (
              <li key={conversation.id} data-testid="recent-conversation">
                <Card.Root asChild variant="outline" size="sm" _hover={{ borderColor: 'purple.500' }}>
                  <RouterLink to={`/chat/${conversation.id}`}>
                    <Card.Body>
                      <HStack justify="space-between" gap="3">
                        <Text fontWeight="medium" truncate>
                          {conversation.title}
                        </Text>
                        <Text fontSize="sm" color="fg.muted" flexShrink={0}>
                          {formatConversationDate(conversation.updatedAt, new Date(), i18n.language)}
                        </Text>
                      </HStack>
                    </Card.Body>
                  </RouterLink>
                </Card.Root>
              </li>
            ))}
          </Stack>
        )}
      </Box>
    </SimpleGrid>
  );
}
