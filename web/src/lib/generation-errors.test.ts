import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { generationErrorToast, generationFailedToast } from './generation-errors';

jest.mock('./toaster', () => ({ showToast: jest.fn() }));

const withCode = (code: string, message = code) => new CombinedGraphQLErrors({ errors: [{ message, extensions: { code } }] });
const GENERIC = { title: 'Generation Failed', description: 'Failed to generate image. Please try again.', variant: 'destructive' };

describe('generation failure toasts', () => {
  it('uses the spec wording for unexplained failures', () => {
    expect(generationFailedToast('INTERNAL', 'Renderer crashed')).toEqual(GENERIC);
    expect(generationFailedToast(null, null)).toEqual(GENERIC);
    expect(generationErrorToast(new Error('offline'))).toEqual(GENERIC);
  });

  it("keeps the title but gives the server's explanation where it has one", () => {
    expect(generationFailedToast('CONTENT_REJECTED', 'The prompt crosses the content rules')).toEqual({
      ...GENERIC,
      description: 'The prompt crosses the content rules',
    });
    expect(generationErrorToast(withCode('INSUFFICIENT_TOKENS', 'You need 1 token.'))).toEqual({
      ...GENERIC,
      description: 'You need 1 token.',
    });
    expect(generationErrorToast(withCode('QUOTA_EXCEEDED', 'Free plan: 3 images a month.'))?.description).toBe(
      'Free plan: 3 images a month.',
    );
    expect(generationFailedToast('CONTENT_REJECTED', '  ')).toEqual(GENERIC);
  });

  it('leaves a lost session to the global handler', () => {
    expect(generationErrorToast(withCode('UNAUTHENTICATED'))).toBeNull();
  });
});
