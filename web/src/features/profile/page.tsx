import { Alert, Stack, Tabs } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../auth/auth-context';
import { AccountDataSection } from './components/account-data-section';
import { EditProfileDialog } from './components/edit-profile-dialog';
import { PersonaCard } from './components/persona-card';
import { ProfileHeader } from './components/profile-header';
import { MyAchievementsDocument, ProfileDocument } from './operations';
import { AchievementsTab, OverviewTab, RecentActivityTab, StatisticsTab } from './components/profile-tabs';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { resolveProfileStats } from './profile-stats';

const TABS = ['overview', 'statistics', 'achievements', 'activity'] as const;
type ProfileTab = (typeof TABS)[number];

/** SPEC §2 Profile: the member, their numbers, achievements and latest work; editing, export and deletion. */
export default function ProfilePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('profile.documentTitle'));
  const user = useCurrentUser();
  const [tab, setTab] = useState<ProfileTab>('overview');
  const [editing, setEditing] = useState(false);
  // Fresh on every visit: the numbers change with every generation, message and like.
  const profile = useQuery(ProfileDocument, { fetchPolicy: 'cache-and-network', errorPolicy: 'all' });
  const achievementsQuery = useQuery(MyAchievementsDocument, { fetchPolicy: 'cache-and-network', errorPolicy: 'all' });

  const images = profile.data?.myImages.nodes ?? [];
  const conversations = profile.data?.conversations.nodes ?? [];
  const achievements = achievementsQuery.data?.myAchievements ?? [];
  const stats = resolveProfileStats(profile.data?.dashboardStats, { images });
  const usedThisMonth = (kind: 'IMAGE' | 'CHAT') => profile.data?.myQuotas.find((quota) => quota.kind === kind)?.used ?? 0;
  const failed = Boolean(profile.error || achievementsQuery.error);

  return (
    <Stack gap="8">
      <ProfileHeader user={user} onEdit={() => setEditing(true)} />
      {failed && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{t('profile.loadFailed')}</Alert.Title>
        </Alert.Root>
      )}
      <Tabs.Root
        value={tab}
        onValueChange={(details) => setTab(details.value as ProfileTab)}
        variant="line"
        colorPalette="purple"
        lazyMount
      >
        <Tabs.List overflowX="auto">
          {TABS.map((value) => (
            <Tabs.Trigger key={value} value={value}>
              {t(`profile.tabs.${value}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="overview" pt="6">
          <OverviewTab stats={stats} achievements={achievements} onShowAchievements={() => setTab('achievements')} />
        </Tabs.Content>
        <Tabs.Content value="statistics" pt="6">
          <StatisticsTab imagesThisMonth={usedThisMonth('IMAGE')} chatMessagesThisMonth={usedThisMonth('CHAT')} />
        </Tabs.Content>
        <Tabs.Content value="achievements" pt="6">
          <AchievementsTab achievements={achievements} />
        </Tabs.Content>
        <Tabs.Content value="activity" pt="6">
          <RecentActivityTab images={images} conversations={conversations} />
        </Tabs.Content>
      </Tabs.Root>
      <PersonaCard />
      <AccountDataSection />
      <EditProfileDialog user={user} open={editing} onClose={() => setEditing(false)} />
    </Stack>
  );
}
