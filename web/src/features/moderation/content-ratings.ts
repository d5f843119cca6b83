import type { ContentRating, RatingDisplay } from '../../gql/graphql';

/**
 * Content ratings and how a member sees them (schema/src/bus/moderation.ts). The server leaves out
 * what a member chose to HIDE (and, when ages must be verified, everything above SAFE for members
 * whose age is only declared); blurring is the client's, from the same preferences.
 */

export const CONTENT_RATINGS = ['SAFE', 'SUGGESTIVE', 'EXPLICIT'] as const satisfies readonly ContentRating[];
export const RATING_DISPLAYS = ['SHOW', 'BLUR', 'HIDE'] as const satisfies readonly RatingDisplay[];

export interface RatingPreferencesValue {
  suggestive: RatingDisplay;
  explicit: RatingDisplay;
}

/** Nothing above SAFE is shown unblurred until the member opts in (the server's default too). */
export const DEFAULT_RATING_PREFERENCES: RatingPreferencesValue = { suggestive: 'BLUR', explicit: 'BLUR' };

/** The preference key of a rating above SAFE. */
export type RatedLevel = keyof RatingPreferencesValue;

export function isContentRating(value: unknown): value is ContentRating {
  return typeof value === 'string' && (CONTENT_RATINGS as readonly string[]).includes(value);
}

/** How content of `rating` is shown to a member with `preferences`: SAFE always shows. */
export function displayFor(rating: ContentRating, preferences: RatingPreferencesValue | null | undefined): RatingDisplay {
  if (rating === 'SAFE') return 'SHOW';
  const chosen = preferences ?? DEFAULT_RATING_PREFERENCES;
  return rating === 'SUGGESTIVE' ? chosen.suggestive : chosen.explicit;
}

/**
 * Whether a picture (or a character's avatar and description) starts blurred: content above SAFE the
 * member chose to blur, unless it is their own. HIDE is filtered by the server; should such an item
 * still arrive (a list read before the preference changed), it is blurred rather than shown.
 */
export function startsBlurred(
  item: { rating: ContentRating; isMine?: boolean },
  preferences: RatingPreferencesValue | null | undefined,
): boolean {
  if (item.isMine) return false;
  return displayFor(item.rating, preferences) !== 'SHOW';
}

/**
 * Whether content above SAFE is held back until the member's age is verified: the operator requires
 * verification and this member's age is only self-declared (the server's rule, gateway content-access).
 */
export function isHeldBackForAge(ageVerificationRequired: boolean, ageAssuranceLevel: string | null | undefined): boolean {
  return ageVerificationRequired && ageAssuranceLevel != null && ageAssuranceLevel.toLowerCase() !== 'verified';
}
