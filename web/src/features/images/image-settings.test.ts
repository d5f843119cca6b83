import {
  creatorName,
  DEFAULT_IMAGE_SETTINGS,
  describeSettings,
  downloadFileName,
  generationPhase,
  generatorHandOffState,
  isActiveGeneration,
  likesLabel,
  normalizeSearch,
  pickQuickIdeas,
  progressPercent,
  QUALITY_OPTIONS,
  QUICK_IDEAS,
  readGeneratorHandOff,
  SIZE_OPTIONS,
  STYLE_OPTIONS,
} from './image-settings';

describe('image settings', () => {
  it('labels the choices as the spec does, with its defaults', () => {
    expect(SIZE_OPTIONS.map((option) => option.label)).toEqual(['1024x1024 (Square)', '1792x1024 (Landscape)', '1024x1792 (Portrait)']);
    expect(QUALITY_OPTIONS.map((option) => option.label)).toEqual(['standard', 'hd']);
    expect(STYLE_OPTIONS.map((option) => option.label)).toEqual(['vivid', 'natural']);
    expect(DEFAULT_IMAGE_SETTINGS).toEqual({ size: 'SQUARE', quality: 'STANDARD', style: 'VIVID' });
    expect(describeSettings({ size: 'PORTRAIT', quality: 'HD', style: 'NATURAL' })).toBe('1024x1792 (Portrait) · hd · natural');
  });

  it('defines six quick ideas and shows three different ones', () => {
    expect(QUICK_IDEAS).toHaveLength(6);
    expect(new Set(QUICK_IDEAS.map((idea) => idea.label)).size).toBe(6);
    const shown = pickQuickIdeas(QUICK_IDEAS);
    expect(shown).toHaveLength(3);
    expect(new Set(shown).size).toBe(3);
    shown.forEach((idea) => expect(QUICK_IDEAS).toContain(idea));
    // With a fixed random source the pick is reproducible.
    expect(pickQuickIdeas([1, 2, 3, 4, 5, 6], 3, () => 0)).toEqual([2, 3, 4]);
  });

  it('names a download after the first 50 characters of the prompt', () => {
    expect(downloadFileName('A lighthouse')).toBe('A lighthouse.png');
    const long = 'x'.repeat(49) + 'yz and more';
    expect(downloadFileName(long)).toBe('x'.repeat(49) + 'y.png');
    expect(downloadFileName('🌙'.repeat(60))).toBe('🌙'.repeat(50) + '.png');
  });

  it('reads a hand-off from the gallery and ignores anything else', () => {
    const handOff = { prompt: 'A fox', size: 'LANDSCAPE' as const, quality: 'HD' as const, style: 'NATURAL' as const };
    expect(readGeneratorHandOff(generatorHandOffState(handOff))).toEqual(handOff);
    expect(readGeneratorHandOff({ generatorHandOff: { prompt: 'A fox', size: 'HUGE' } })).toEqual({
      prompt: 'A fox',
      ...DEFAULT_IMAGE_SETTINGS,
    });
    expect(readGeneratorHandOff(null)).toBeNull();
    expect(readGeneratorHandOff({ generatorHandOff: { prompt: 3 } })).toBeNull();
    expect(readGeneratorHandOff('prompt')).toBeNull();
  });

  it('reports progress in percent, indeterminate while unknown', () => {
    expect(progressPercent({ status: 'QUEUED', progress: null })).toBeNull();
    expect(progressPercent({ status: 'RUNNING', progress: null })).toBeNull();
    expect(progressPercent({ status: 'RUNNING', progress: 0.3 })).toBe(30);
    expect(progressPercent({ status: 'STORING', progress: 1.2 })).toBe(100);
    expect(generationPhase({ status: 'RUNNING', progress: 0.4 })).toBe('Drawing… 40%');
    expect(generationPhase({ status: 'QUEUED', progress: null })).toBe('Waiting for the renderer…');
    expect(isActiveGeneration('STORING')).toBe(true);
    expect(isActiveGeneration('DONE')).toBe(false);
    expect(isActiveGeneration('CANCELLED')).toBe(false);
  });

  it('formats creators, searches and likes', () => {
    expect(creatorName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(creatorName({ firstName: ' Ada ', lastName: null })).toBe('Ada');
    expect(creatorName(null)).toBeNull();
    expect(normalizeSearch('  ')).toBeNull();
    expect(normalizeSearch(' Fox ')).toBe('Fox');
    expect(normalizeSearch('a'.repeat(300))).toHaveLength(200);
    expect(likesLabel(1)).toBe('1 like');
    expect(likesLabel(0)).toBe('0 likes');
  });
});
