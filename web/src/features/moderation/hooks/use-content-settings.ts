import { useQuery } from '@apollo/client/react';
import { isAgeVerificationRequired } from '../../../lib/app-config';
import { isHeldBackForAge, type RatingPreferencesValue } from '../content-ratings';
import { ViewerContentSettingsDocument } from '../operations';

/**
 * The signed-in member's rating preferences and how their age is known: read once, then from the
 * cache (updateRatingPreferences answers the new preferences into it). Until they arrive the
 * preferences are null, which blurs everything above SAFE (the default).
 */
export function useContentSettings(): {
  preferences: RatingPreferencesValue | null;
  /** Content above SAFE is held back until the member's age is verified. */
  heldBackForAge: boolean;
  loading: boolean;
  error: boolean;
  refetch: () => void;
} {
  const { data, loading, error, refetch } = useQuery(ViewerContentSettingsDocument, { fetchPolicy: 'cache-first', errorPolicy: 'all' });
  const me = data?.me ?? null;
  return {
    preferences: me?.ratingPreferences ?? null,
    heldBackForAge: isHeldBackForAge(isAgeVerificationRequired(), me?.ageAssurance.level),
    loading,
    error: Boolean(error) && !me,
    refetch: () => void refetch(),
  };
}
