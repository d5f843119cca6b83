import type { Achievement, DashboardStats } from '@app/schema';
import type { IdentityStore } from '../identity.store';
import { toAchievements, toDashboardStats } from './achievements';

/** Dashboard counters: a projection the chat and media events feed; zeros until a member has activity. */
export class StatsService {
  constructor(private readonly store: IdentityStore) {}

  async getStats(userId: string): Promise<DashboardStats> {
    return toDashboardStats(await this.store.run(({ stats }) => stats.find(userId)));
  }

  /** All six achievements with the member's progress toward each, and when those earned were earned. */
  async getAchievements(userId: string): Promise<Achievement[]> {
    const [row, earned] = await this.store.run(({ stats, achievements }) =>
      Promise.all([stats.find(userId), achievements.listEarned(userId)]),
    );
    return toAchievements(toDashboardStats(row), earned);
  }
}
