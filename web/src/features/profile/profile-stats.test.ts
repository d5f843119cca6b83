import {
  MONTHLY_TARGETS,
  achievementPercent,
  averageLikesPerImage,
  formatAverageLikes,
  formatRate,
  overviewAchievements,
  resolveProfileStats,
  visibilityRatePercent,
} from './profile-stats';

describe('resolveProfileStats', () => {
  const images = [
    { likes: 3, isPublic: true },
    { likes: 0, isPublic: false },
    { likes: 4, isPublic: true },
  ];

  it('uses the counts the server gives', () => {
    const stats = { imagesGenerated: 12, chatMessages: 40, charactersCreated: 2, storiesStarted: 1, totalLikes: 9, publicImages: 5 };
    expect(resolveProfileStats(stats, { images, characterCount: 1 })).toEqual(stats);
  });

  it('falls back to the loaded lists when a stat is missing or 0 (SPEC §3)', () => {
    expect(resolveProfileStats({ imagesGenerated: 0, totalLikes: null, chatMessages: 7 }, { images, characterCount: 2 })).toEqual({
      imagesGenerated: 3,
      chatMessages: 7,
      charactersCreated: 2,
      storiesStarted: 0,
      totalLikes: 7,
      publicImages: 2,
    });
  });

  it('is all zeros with nothing loaded', () => {
    expect(resolveProfileStats(null)).toEqual({
      imagesGenerated: 0,
      chatMessages: 0,
      charactersCreated: 0,
      storiesStarted: 0,
      totalLikes: 0,
      publicImages: 0,
    });
  });
});

describe('average likes and visibility rate', () => {
  it('averages likes per image and formats them to one decimal', () => {
    expect(averageLikesPerImage(10, 4)).toBe(2.5);
    expect(formatAverageLikes(averageLikesPerImage(10, 3), 'en', '—')).toBe('3.3');
    expect(formatAverageLikes(averageLikesPerImage(2, 1), 'en', '—')).toBe('2.0');
    expect(formatAverageLikes(averageLikesPerImage(10, 4), 'de', '—')).toBe('2,5');
  });

  it('rounds the visibility rate to a whole percentage', () => {
    expect(visibilityRatePercent(1, 3)).toBe(33);
    expect(visibilityRatePercent(2, 3)).toBe(67);
    expect(visibilityRatePercent(5, 5)).toBe(100);
    expect(formatRate(visibilityRatePercent(2, 3), 'en', '—')).toBe('67%');
    expect(formatRate(0, 'en', '—')).toBe('0%');
  });

  it('shows the placeholder when there are no images to divide by', () => {
    expect(averageLikesPerImage(0, 0)).toBeNull();
    expect(visibilityRatePercent(0, 0)).toBeNull();
    expect(formatAverageLikes(null, 'en', '—')).toBe('—');
    expect(formatRate(null, 'en', '—')).toBe('—');
  });

  it('never reports more than 100% public', () => {
    expect(visibilityRatePercent(7, 5)).toBe(100);
  });
});

describe('achievements', () => {
  it('shows at most four earned achievements, in catalogue order', () => {
    const list = ['A', 'B', 'C', 'D', 'E', 'F'].map((key, index) => ({ key, earned: index !== 1 }));
    expect(overviewAchievements(list).map((item) => item.key)).toEqual(['A', 'C', 'D', 'E']);
    expect(overviewAchievements(list.map((item) => ({ ...item, earned: false })))).toEqual([]);
  });

  it('measures progress as a capped percentage', () => {
    expect(achievementPercent(0, 1)).toBe(0);
    expect(achievementPercent(25, 100)).toBe(25);
    expect(achievementPercent(120, 100)).toBe(100);
    expect(achievementPercent(3, 0)).toBe(100);
  });

  it('measures the month against the SPEC §9 targets', () => {
    expect(MONTHLY_TARGETS).toEqual({ images: 100, chatMessages: 1000 });
  });
});
