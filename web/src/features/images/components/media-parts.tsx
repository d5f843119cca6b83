import { Badge, Box, type BadgeProps, Button, Flex, Stack, Switch, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../auth/auth-context';
import type { ContentRating, ImageFieldsFragment } from '../../../gql/graphql';
import { CoinsIcon } from '../../../components/icons/icons';
import { RatingChoice } from '../../moderation/components/rating-parts';
import { GlobeIcon, LockIcon } from '../../../components/icons/media-icons';

/** Shown whenever the offline demo renderer draws the images, so they are never taken for AI. */
export function DemoRendererNotice() {
  const { t } = useTranslation();
  return (
    <Box
      role="note"
      data-testid="demo-renderer-notice"
      bg="orange.950"
      color="orange.100"
      borderWidth="1px"
      borderColor="orange.800"
      rounded="md"
      px="4"
      py="2"
      fontSize="sm"
      fontWeight="medium"
    >
      {t('images.demo.notice')}
    </Box>
  );
}

/** On images the demo renderer drew. */
export function DemoBadge(props: BadgeProps) {
  const { t } = useTranslation();
  return (
    <Badge colorPalette="orange" variant="solid" title={t('images.demo.badgeTitle')} data-testid="demo-badge" {...props}>
      {t('images.demo.badge')}
    </Badge>
  );
}

export function VisibilityBadge({ isPublic, ...props }: { isPublic: boolean } & BadgeProps) {
  const { t } = useTranslation();
  return (
    <Badge colorPalette={isPublic ? 'green' : 'gray'} variant="subtle" data-testid="visibility-badge" {...props}>
      {isPublic ? <GlobeIcon boxSize="3" /> : <LockIcon boxSize="3" />}
      {isPublic ? t('images.visibility.public') : t('images.visibility.private')}
    </Badge>
  );
}

/**
 * The owner's public/private switch for one image. Going public first asks for the rating (Safe,
 * Suggestive or Explicit, each explained) just under the switch; the image is published only once
 * one is chosen. Going private happens at once.
 */
export function VisibilitySwitch({
  image,
  updating,
  onChange,
}: {
  image: Pick<ImageFieldsFragment, 'id' | 'isPublic'>;
  updating: boolean;
  onChange: (isPublic: boolean, rating?: ContentRating) => void;
}) {
  const { t } = useTranslation();
  // The image whose rating is being chosen (another image shown here starts without the question).
  const [choosingFor, setChoosingFor] = useState<string | null>(null);
  const [rating, setRating] = useState<ContentRating | null>(null);
  const [ratingError, setRatingError] = useState<string | undefined>();
  const firstRadio = useRef<HTMLInputElement>(null);
  const choosing = choosingFor === image.id && !image.isPublic;

  useEffect(() => {
    if (choosing) firstRadio.current?.focus();
  }, [choosing]);

  const closeChoice = () => {
    setChoosingFor(null);
    setRating(null);
    setRatingError(undefined);
  };
  const publish = () => {
    if (!rating) {
      setRatingError(t('ratings.publish.required'));
      return;
    }
    onChange(true, rating);
    closeChoice();
  };

  return (
    <Stack gap="3" flex="1" minW="0">
      <Switch.Root
        // On while the rating is being chosen (the member turned it on); off again if they cancel.
        checked={image.isPublic || choosing}
        disabled={updating}
        onCheckedChange={(details) => {
          if (!details.checked) onChange(false);
          else if (choosing) closeChoice();
          else setChoosingFor(image.id);
        }}
        colorPalette="purple"
        display="flex"
        alignItems="flex-start"
        gap="3"
        data-testid="visibility-switch"
      >
        <Switch.HiddenInput />
        <Switch.Control mt="0.5">
          <Switch.Thumb />
        </Switch.Control>
        <Stack as="span" gap="0">
          <Switch.Label>{t('ratings.visibility.public')}</Switch.Label>
          <Text as="span" fontSize="sm" color="fg.muted">
            {image.isPublic ? t('ratings.visibility.publicHint') : t('ratings.visibility.privateHint')}
          </Text>
        </Stack>
      </Switch.Root>
      {choosing && (
        <Stack gap="3" borderWidth="1px" borderColor="border" rounded="md" p="3" data-testid="publish-rating">
          <Text fontSize="sm" color="fg.muted">
            {t('ratings.publish.intro')}
          </Text>
          <RatingChoice
            label={t('ratings.publish.label')}
            value={rating}
            onChange={(value) => {
              setRating(value);
              setRatingError(undefined);
            }}
            error={ratingError}
            firstRadioRef={firstRadio}
          />
          <Flex gap="2" justify="flex-end" wrap="wrap">
            <Button size="sm" variant="outline" onClick={closeChoice}>
              {t('ratings.publish.cancel')}
            </Button>
            <Button size="sm" colorPalette="purple" onClick={publish} loading={updating}>
              {t('ratings.publish.submit')}
            </Button>
          </Flex>
        </Stack>
      )}
    </Stack>
  );
}

/** The member's live balance (pushed over the socket, so it drops without a reload). */
export function TokenBalanceBadge({ testId }: { testId: string }) {
  const { t, i18n } = useTranslation();
  const { tokens } = useCurrentUser();
  const count = tokens ?? 0;
  return (
    <Badge variant="outline" colorPalette="gray" size="lg" title={t('images.balance.title')} aria-live="polite">
      <CoinsIcon boxSize="4" />
      <span data-testid={testId}>{new Intl.NumberFormat(i18n.language).format(count)}</span>
      {t('images.balance.unit', { count })}
    </Badge>
  );
}
