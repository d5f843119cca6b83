import { DEFAULT_RATING_PREFERENCES, displayFor, isContentRating, isHeldBackForAge, startsBlurred } from './content-ratings';

describe('displayFor', () => {
  it('always shows SAFE content', () => {
    expect(displayFor('SAFE', { suggestive: 'HIDE', explicit: 'HIDE' })).toBe('SHOW');
  });

  it('follows the member’s choice per rating, blurring both by default', () => {
    const preferences = { suggestive: 'SHOW', explicit: 'HIDE' } as const;
    expect(displayFor('SUGGESTIVE', preferences)).toBe('SHOW');
    expect(displayFor('EXPLICIT', preferences)).toBe('HIDE');
    expect(DEFAULT_RATING_PREFERENCES).toEqual({ suggestive: 'BLUR', explicit: 'BLUR' });
    expect(displayFor('SUGGESTIVE', null)).toBe('BLUR');
    expect(displayFor('EXPLICIT', undefined)).toBe('BLUR');
  });
});

describe('startsBlurred', () => {
  it('blurs what the member chose to blur, and what should have been hidden', () => {
    expect(startsBlurred({ rating: 'EXPLICIT' }, { suggestive: 'SHOW', explicit: 'BLUR' })).toBe(true);
    expect(startsBlurred({ rating: 'EXPLICIT' }, { suggestive: 'SHOW', explicit: 'HIDE' })).toBe(true);
    expect(startsBlurred({ rating: 'SUGGESTIVE' }, { suggestive: 'SHOW', explicit: 'BLUR' })).toBe(false);
    expect(startsBlurred({ rating: 'SAFE' }, null)).toBe(false);
  });

  it('never blurs the member’s own content', () => {
    expect(startsBlurred({ rating: 'EXPLICIT', isMine: true }, null)).toBe(false);
  });
});

describe('isHeldBackForAge', () => {
  it('holds content back only when verification is required and the age is only declared', () => {
    expect(isHeldBackForAge(true, 'declared')).toBe(true);
    expect(isHeldBackForAge(true, 'DECLARED')).toBe(true);
    expect(isHeldBackForAge(true, 'verified')).toBe(false);
    expect(isHeldBackForAge(false, 'declared')).toBe(false);
    // Not known yet: no note until the member's settings have arrived.
    expect(isHeldBackForAge(true, null)).toBe(false);
  });
});

describe('isContentRating', () => {
  it('accepts the three ratings only', () => {
    expect(['SAFE', 'SUGGESTIVE', 'EXPLICIT'].every(isContentRating)).toBe(true);
    expect(isContentRating('safe')).toBe(false);
    expect(isContentRating(undefined)).toBe(false);
  });
});
