import type { ContentRating, User } from '@app/schema';

/**
 * Which ratings a viewer's lists and reads include. Visitors see safe only; members see what they did not
 * choose to hide (blurring is the client's, from the same preferences); with AGE_VERIFICATION_REQUIRED, a
 * member whose age is only self-declared sees safe only until an age-assurance provider has verified it.
 */
export class ContentAccess {
  constructor(readonly ageVerificationRequired: boolean) {}

  ratingsFor(user: User | null): ContentRating[] {
    if (!user) return ['safe'];
    if (this.ageVerificationRequired && user.ageAssurance.level !== 'verified') return ['safe'];
    const ratings: ContentRating[] = ['safe'];
    if (user.ratingPreferences.suggestive !== 'hide') ratings.push('suggestive');
    if (user.ratingPreferences.explicit !== 'hide') ratings.push('explicit');
    return ratings;
  }
}
