import { type Bus, type Transaction, logger } from '@app/kit';
import {
  ACHIEVEMENTS,
  type Achievement,
  type AchievementEarned,
  type DashboardStats,
  achievementsLiveSubject,
  identityEvents,
  reachedAchievements,
} from '@app/schema';
import type { IdentityRepositories } from '../identity.store';
import type { EarnedRow } from './achievements.repository';
import type { StatsRow } from './stats.repository';

/** A member's counters as the dashboard shows them: zeros until there is activity. */
export const toDashboardStats = (row: StatsRow | null): DashboardStats => ({
  imagesGenerated: row?.images_generated ?? 0,
  chatMessages: row?.chat_messages ?? 0,
  charactersCreated: row?.characters_created ?? 0,
  storiesStarted: row?.stories_started ?? 0,
  totalLikes: row?.total_likes ?? 0,
  publicImages: row?.public_images ?? 0,
});

/** The six achievements, in SPEC order, with the member's progress and what they have earned. */
export function toAchievements(stats: DashboardStats, earned: EarnedRow[]): Achievement[] {
  const earnedAt = new Map(earned.map((row) => [row.key, new Date(row.earned_at).toISOString()]));
  return ACHIEVEMENTS.map(({ key, threshold, counter }) => ({
    key,
    threshold,
    progress: Math.min(stats[counter], threshold),
    earned: earnedAt.has(key),
    earnedAt: earnedAt.get(key) ?? null,
  }));
}

/**
 * Records the achievements the member's counters now reach and had not earned: each is an event (outbox, same
 * transaction) and, once committed, a live message to the member's open screens when `bus` is given.
 */
export async function awardAchievements(
  { stats, achievements }: IdentityRepositories,
  tx: Transaction,
  bus: Bus | null,
  userId: string,
  now: Date,
): Promise<number> {
  const counters = toDashboardStats(await stats.find(userId));
  const fresh = await achievements.recordEarned(userId, reachedAchievements(counters), now);
  if (fresh.length === 0) return 0;
  const earned = toAchievements(counters, fresh).filter((achievement) => achievement.earned);
  for (const achievement of earned) {
    await tx.emit(identityEvents.achievementEarned, { userId, key: achievement.key, earnedAt: achievement.earnedAt! }, userId);
  }
  if (bus) {
    tx.afterCommit(() => {
      for (const achievement of earned) {
        bus
          .publishLive(achievementsLiveSubject(userId), { userId, achievement } satisfies AchievementEarned)
          .catch((error: unknown) => logger.warn({ err: error, userId }, 'achievement not sent live'));
      }
    });
  }
  return earned.length;
}
