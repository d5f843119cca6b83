import type { Database } from '@app/kit';
import type { DashboardStats } from '@app/schema';

/** Dashboard counters: a projection the chat and media events feed; zeros until a member has activity. */
export class StatsService {
  constructor(private readonly db: Database) {}

  async getStats(userId: string): Promise<DashboardStats> {
    const rows: Record<string, number>[] = await this.db.manager.query(
      `SELECT "images_generated", "chat_messages", "characters_created", "stories_started", "total_likes", "public_images"
       FROM "identity"."user_stats" WHERE "user_id" = $1`,
      [userId],
    );
    const row = rows[0];
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
