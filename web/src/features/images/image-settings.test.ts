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
  qualityLabel,
  QUICK_IDEA_KEYS,
  quickIdea,
  formatImageDate,
  formatPercent,
  readGeneratorHandOff,
  SIZE_OPTIONS,
  sizeLabel,
  STYLE_OPTIONS,
  styleLabel,
} from './image-settings';

describe('image settings', () => {
  it('labels the choices as the spec does, with its defaults', () => {
    expect(SIZE_OPTIONS.map(sizeLabel)).toEqual(['1024x1024 (Square)', '1792x1024 (Landscape)', '1024x1792 (Portrait)']);
    expect(QUALITY_OPTIONS.map(qualityLabel)).toEqual(['standard', 'hd']);
    expect(STYLE_OPTIONS.map(styleLabel)).toEqual(['vivid', 'natural']);
    expect(DEFAULT_IMAGE_SETTINGS).toEqual({ size: 'SQUARE', quality: 'STANDARD', style: 'VIVID' });
    expect(describeSettings({ size: 'PORTRAIT', quality: 'HD', style: 'NATURAL' })).toBe('1024x1792 (Portrait) · hd · natural');
  });

  it('defines six quick ideas and shows three different ones', () => {
    const ideas = QUICK_IDEA_KEYS.map(quickIdea);
    expect(ideas).toHaveLength(6);
    expect(new Set(ideas.map((idea) => idea.label)).size).toBe(6);
    expect(quickIdea('lighthouse')).toEqual({
      label: 'Moonlit lighthouse',
      prompt: 'A lonely lighthouse on a rocky cliff under a full moon, waves crashing below, cinematic lighting',
    });
    const shown = pickQuickIdeas(QUICK_IDEA_KEYS);
    expect(shown).toHaveLength(3);
    expect(new Set(shown).size).toBe(3);
    shown.forEach((idea) => expect(QUICK_IDEA_KEYS).toContain(idea));
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
    expect(readGeneratorHandOff(generatorHandOffState(handOff))).toEqual({ ...handOff, advanced: undefined });
    expect(readGeneratorHandOff({ generatorHandOff: { prompt: 'A fox', size: 'HUGE' } })).toEqual({
      prompt: 'A fox',
      ...DEFAULT_IMAGE_SETTINGS,
    });
    // "Use these settings" carries the advanced settings too; a value of the wrong type is dropped.
    const advanced = { negativePrompt: 'blurry', seed: 42, steps: 30, cfgScale: 7.5, sampler: 'Euler a' };
    expect(readGeneratorHandOff(generatorHandOffState({ ...handOff, advanced }))?.advanced).toEqual(advanced);
    expect(readGeneratorHandOff({ generatorHandOff: { prompt: 'A fox', advanced: { seed: '42', steps: 20 } } })?.advanced).toEqual({
      negativePrompt: null,
      seed: null,
      steps: 20,
      cfgScale: null,
      sampler: null,
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
    expect(formatPercent(40, 'en')).toBe('40%');
    expect(formatPercent(40, 'fr')).toMatch(/^40\s%$/);
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
    expect(formatImageDate('2026-03-04T12:00:00Z', 'en')).toBe('Mar 4, 2026');
    expect(formatImageDate('2026-03-04T12:00:00Z', 'de')).toBe('4. März 2026');
    expect(formatImageDate('not a date')).toBe('');
  });
});
