import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { generationErrorToast, generationFailedToast } from './generation-errors';

jest.mock('../../lib/toaster', () => ({ showToast: jest.fn() }));

const withCode = (code: string, message = code) => new CombinedGraphQLErrors({ errors: [{ message, extensions: { code } }] });
const GENERIC = { title: 'Generation Failed', description: 'Failed to generate image. Please try again.', variant: 'destructive' };

describe('generation failure toasts', () => {
  it('uses the spec wording for unexplained failures', () => {
    expect(generationFailedToast('INTERNAL', 'Renderer crashed')).toEqual(GENERIC);
    expect(generationFailedToast(null, null)).toEqual(GENERIC);
    expect(generationErrorToast(new Error('offline'))).toEqual(GENERIC);
  });

  it('keeps the title and explains the code in the interface language', () => {
    const CONTENT_RULES = 'Sexual content involving minors, or characters who look or act like minors, is never allowed.';
    expect(generationFailedToast('CONTENT_REJECTED', 'The prompt crosses the content rules')).toEqual({
      ...GENERIC,
      description: CONTENT_RULES,
    });
    expect(generationFailedToast('UNAVAILABLE', 'A1111 answered 502')).toEqual({
      ...GENERIC,
      description: 'The image renderer is not available right now. Please try again later.',
    });
    expect(generationErrorToast(withCode('RATE_LIMITED', 'Too many requests'))?.description).toBe(
      'You are generating too quickly. Wait a moment and try again.',
    );
    // A refused setting keeps the server's detail, which names the setting.
    expect(generationFailedToast('VALIDATION_FAILED', 'This image provider does not support seed').description).toBe(
      'These settings were not accepted: This image provider does not support seed',
    );
    // Out of tokens or allowance: the spec's title, the reason in the interface language and the way to Plans.
    const outOfTokens = generationErrorToast(withCode('INSUFFICIENT_TOKENS', 'You need 1 token.'));
    expect(outOfTokens).toMatchObject({ title: GENERIC.title, variant: 'destructive', action: { label: 'See plans' } });
    expect(outOfTokens?.description).toMatch(/balance is empty/);
    expect(generationFailedToast('QUOTA_EXCEEDED', 'Free plan: 3 images a month.').description).toMatch(/free allowance/);
  });

  it('names the content rule a refused job gives, in the interface language', () => {
    expect(generationFailedToast('CONTENT_REJECTED', 'This image matches content that was removed from the site.', 'blocked_hash')).toEqual(
      {
        ...GENERIC,
        description: 'The picture that was drawn matches one our moderators removed, so it was not kept. You were not charged for it.',
      },
    );
    expect(generationFailedToast('CONTENT_REJECTED', 'Refused', 'minors').description).toMatch(/minors/);
    // An unknown category falls back to the general content rule, in the interface language.
    expect(generationFailedToast('CONTENT_REJECTED', 'Refused', 'something_new').description).toMatch(/never allowed/);
  });

  it('leaves a lost session to the global handler', () => {
    expect(generationErrorToast(withCode('UNAUTHENTICATED'))).toBeNull();
  });
});
