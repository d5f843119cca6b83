import { MODERATION_LIMITS } from '@app/schema';
import { cutText } from './moderation.service';

describe('cutText', () => {
  it('keeps a text within the snapshot length as it is', () => {
    const text = 'x'.repeat(MODERATION_LIMITS.snapshotText);
    expect(cutText(text)).toBe(text);
  });

  it('cuts a longer one to the snapshot length', () => {
    expect(cutText('y'.repeat(MODERATION_LIMITS.snapshotText + 10))).toHaveLength(MODERATION_LIMITS.snapshotText);
  });

  it('never leaves half of a surrogate pair at the end (the snapshot is stored as jsonb)', () => {
    const text = 'ab\u{1F600}cd';
    expect(cutText(text, 3)).toBe('ab');
    expect(cutText(text, 4)).toBe('ab\u{1F600}');
  });
});
