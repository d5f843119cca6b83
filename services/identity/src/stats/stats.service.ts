import type { DashboardStats } from '@app/schema';
import type { IdentityStore } from '../identity.store';

/** Dashboard counters: a projection the chat and media events feed; zeros until a member has activity. */
export class StatsService {
  constructor(private readonly store: IdentityStore) {}

  async getStats(userId: string): Promise<DashboardStats> {
    const row = await this.store.run(({ stats }) => stats.find(userId));
    return {
      imagesGenerated: row?.images_generated ?? 0,
      chatMessages: row?.chat_messages ?? 0,
      charactersCreated: row?.characters_created ?? 0,
      storiesStarted: row?.stories_started ?? 0,
      totalLikes: row?.total_likes ?? 0,
      publicImages: row?.public_images ?? 0,
    };
  }
}
