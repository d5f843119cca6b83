/** The Profile screen's numbers (SPEC §2 Profile, §3 stats fallbacks, §9 targets and display limits). */

/** SPEC §9: the Statistics tab measures a month against 100 images and 1000 chat messages. */
export const MONTHLY_TARGETS = { images: 100, chatMessages: 1000 } as const;

/** SPEC §9: the Overview shows at most 4 earned achievements; Recent Activity the 5 latest items of each kind. */
export const OVERVIEW_ACHIEVEMENT_LIMIT = 4;
export const RECENT_ITEM_LIMIT = 5;

export interface StatsInput {
  imagesGenerated?: number | null;
  chatMessages?: number | null;
  charactersCreated?: number | null;
  storiesStarted?: number | null;
  totalLikes?: number | null;
  publicImages?: number | null;
}

/** The lists the screen has loaded, from which a missing stat is estimated. */
export interface LoadedLists {
  images?: readonly { likes: number; isPublic: boolean }[];
  characterCount?: number | null;
}

export interface ProfileStats {
  imagesGenerated: number;
  chatMessages: number;
  charactersCreated: number;
  storiesStarted: number;
  totalLikes: number;
  publicImages: number;
}

/** A count the server gave, unless it is missing or 0: then the figure from the loaded lists (SPEC §3). */
function withFallback(stat: number | null | undefined, fromLists: number): number {
  return stat || fromLists;
}

export function resolveProfileStats(stats: StatsInput | null | undefined, lists: LoadedLists = {}): ProfileStats {
  const images = lists.images ?? [];
  return {
    imagesGenerated: withFallback(stats?.imagesGenerated, images.length),
    chatMessages: stats?.chatMessages ?? 0,
    charactersCreated: withFallback(stats?.charactersCreated, lists.characterCount ?? 0),
    storiesStarted: stats?.storiesStarted ?? 0,
    totalLikes: withFallback(
      stats?.totalLikes,
      images.reduce((sum, image) => sum + image.likes, 0),
    ),
    publicImages: withFallback(stats?.publicImages, images.filter((image) => image.isPublic).length),
  };
}

/** Likes per image; null without images (nothing to average). */
export function averageLikesPerImage(totalLikes: number, images: number): number | null {
  return images > 0 ? totalLikes / images : null;
}

/** Share of images that are public, as a whole percentage; null without images. */
export function visibilityRatePercent(publicImages: number, images: number): number | null {
  return images > 0 ? Math.round((Math.min(publicImages, images) / images) * 100) : null;
}

/** SPEC §2: average likes to one decimal, in the member's language. */
export function formatAverageLikes(value: number | null, locale: string, missing: string): string {
  if (value === null) return missing;
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

/** SPEC §2: the visibility rate as a rounded percentage, in the member's language. */
export function formatRate(percent: number | null, locale: string, missing: string): string {
  if (percent === null) return missing;
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(percent / 100);
}

/** The earned achievements the Overview shows: in their catalogue order, at most four. */
export function overviewAchievements<T extends { earned: boolean }>(achievements: readonly T[]): T[] {
  return achievements.filter((achievement) => achievement.earned).slice(0, OVERVIEW_ACHIEVEMENT_LIMIT);
}

/** Progress towards an achievement, 0-100. */
export function achievementPercent(progress: number, threshold: number): number {
  if (threshold <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round((progress / threshold) * 100)));
}
