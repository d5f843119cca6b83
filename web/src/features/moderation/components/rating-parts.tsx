import { Badge, Box, Button, IconButton, type BadgeProps, type BoxProps } from '@chakra-ui/react';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentRating, ModerationState } from '../../../gql/graphql';
import { CONTENT_RATINGS } from '../content-ratings';
import { ChoiceGroup } from '../../../components/choice-group';
import { EyeIcon } from '../../../components/icons/icons';

const RATING_PALETTE: Record<ContentRating, string> = { SAFE: 'green', SUGGESTIVE: 'orange', EXPLICIT: 'red' };

/** The rating's name in the interface language. */
export function useRatingName(): (rating: ContentRating) => string {
  const { t } = useTranslation();
  return (rating) => t(`ratings.levels.${rating}.name`);
}

/** A small badge with a public item's rating. */
export function RatingBadge({ rating, ...props }: { rating: ContentRating } & BadgeProps) {
  const { t } = useTranslation();
  const name = t(`ratings.levels.${rating}.name`);
  return (
    <Badge
      colorPalette={RATING_PALETTE[rating]}
      variant="subtle"
      title={t('ratings.badgeTitle', { rating: name })}
      data-testid="rating-badge"
      data-rating={rating}
      {...props}
    >
      {name}
    </Badge>
  );
}

/** On the owner's own items: a moderator hid or removed it (nothing for visible items). */
export function ModerationStateBadge({ state, ...props }: { state: ModerationState } & BadgeProps) {
  const { t } = useTranslation();
  if (state === 'VISIBLE') return null;
  return (
    <Badge
      colorPalette="red"
      variant="outline"
      title={state === 'HIDDEN' ? t('contentState.hiddenHelp') : undefined}
      data-testid="moderation-state-badge"
      {...props}
    >
      {state === 'HIDDEN' ? t('contentState.hidden') : t('contentState.removed')}
    </Badge>
  );
}

/** Safe / Suggestive / Explicit, each with its one-line explanation. */
export function RatingChoice({
  value,
  onChange,
  label,
  error,
  firstRadioRef,
}: {
  value: ContentRating | null;
  onChange: (rating: ContentRating) => void;
  label?: string;
  error?: string;
  firstRadioRef?: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  return (
    <ChoiceGroup
      label={label ?? t('ratings.label')}
      value={value}
      onChange={onChange}
      error={error}
      firstRadioRef={firstRadioRef}
      testId="rating-choice"
      choices={CONTENT_RATINGS.map((rating) => ({
        value: rating,
        label: t(`ratings.levels.${rating}.name`),
        description: t(`ratings.levels.${rating}.description`),
      }))}
    />
  );
}

/** Blurs what it wraps (a picture, a character's avatar or description); the parent clips it. */
export const BLURRED_STYLE = { filter: 'blur(24px)', transform: 'scale(1.15)' } as const;

/**
 * Laid over blurred content (the caller places it, e.g. `inset="0"`): a "Show" button in the middle.
 * The layer itself lets clicks through, so only the button reveals; `compact` is an eye icon alone,
 * for thumbnails.
 */
export function RevealOverlay({
  rating,
  onReveal,
  compact = false,
  ...boxProps
}: { rating: ContentRating; onReveal: () => void; compact?: boolean } & BoxProps) {
  const { t } = useTranslation();
  const label = t('sensitive.showLabel', { rating: t(`ratings.levels.${rating}.name`) });
  return (
    <Box position="absolute" display="flex" alignItems="center" justifyContent="center" pointerEvents="none" zIndex="1" {...boxProps}>
      {compact ? (
        <IconButton
          size="xs"
          variant="solid"
          colorPalette="gray"
          aria-label={label}
          pointerEvents="auto"
          onClick={onReveal}
          data-testid="reveal-button"
        >
          <EyeIcon />
        </IconButton>
      ) : (
        <Button
          size="xs"
          variant="solid"
          colorPalette="gray"
          aria-label={label}
          pointerEvents="auto"
          onClick={onReveal}
          data-testid="reveal-button"
        >
          <EyeIcon />
          {t('sensitive.show')}
        </Button>
      )}
    </Box>
  );
}
