import {
  Avatar,
  Badge,
  Box,
  Button,
  Card,
  Flex,
  Heading,
  HStack,
  IconButton,
  Menu,
  Portal,
  Stack,
  Text,
  VisuallyHidden,
  Wrap,
} from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { CharacterFieldsFragment } from '../../../gql/graphql';
import { cardDownloadUrl, visibleTraits, type CardFormat } from '../character-form-model';
import { ChatIcon, EyeIcon, FlagIcon } from '../../../components/icons/icons';
import { DownloadIcon, EditIcon, TrashIcon } from '../../../components/icons/chat-icons';
import { ModerationStateBadge, RatingBadge } from '../../moderation/components/rating-parts';

/** Export formats; each one's name is `characters.card.formats.<format>`. */
const EXPORT_FORMATS: readonly CardFormat[] = ['png', 'json_v2', 'json_v3'];

function characterInitial(name: string): string {
  return Array.from(name.trim())[0]?.toUpperCase() ?? '?';
}

/**
 * A character: avatar, name, description, up to three traits and +N, visibility and rating, and its
 * actions. A `blurred` card (a rating the member chose to blur) hides its avatar and description
 * until Show is pressed.
 */
export function CharacterCard({
  character,
  variant,
  starting,
  blurred = false,
  onChat,
  onEdit,
  onDelete,
  onReveal,
  onReport,
}: {
  character: CharacterFieldsFragment;
  /** 'mine': Chat, edit, export, delete. 'discover': Start Chat, and Report on someone else's. */
  variant: 'mine' | 'discover';
  starting: boolean;
  blurred?: boolean;
  onChat: () => void;
  onEdit?: () => void;
  onDelete?: () => void;
  onReveal?: () => void;
  onReport?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { shown, more } = visibleTraits(character.personality.traits);
  const headingId = `character-${variant}-${character.id}`;
  const ratingName = t(`ratings.levels.${character.rating}.name`);

  return (
    <Card.Root
      as="article"
      variant="outline"
      h="full"
      aria-labelledby={headingId}
      data-testid={`${variant}-character-card`}
      data-blurred={blurred ? 'true' : undefined}
    >
      <Card.Body gap="3">
        <HStack gap="3" align="flex-start">
          <Avatar.Root size="lg" colorPalette="purple" flexShrink={0} overflow="hidden">
            <Avatar.Fallback>{characterInitial(character.name)}</Avatar.Fallback>
            {character.avatar && <Avatar.Image src={character.avatar} alt="" filter={blurred ? 'blur(8px)' : undefined} />}
          </Avatar.Root>
          <Stack gap="1" minW="0" flex="1">
            <Heading as="h3" size="md" id={headingId} truncate>
              {character.name}
            </Heading>
            {variant === 'discover' && character.creator && (
              <Text fontSize="xs" color="fg.muted" truncate>
                {t('characters.card.by', { creator: character.creator })}
              </Text>
            )}
            <HStack gap="1.5" wrap="wrap">
              <Badge colorPalette={character.isPublic ? 'green' : 'gray'} variant="subtle">
                {character.isPublic ? t('characters.card.public') : t('characters.card.private')}
              </Badge>
              {character.isPublic && <RatingBadge rating={character.rating} />}
              {variant === 'mine' && <ModerationStateBadge state={character.moderationState} />}
            </HStack>
          </Stack>
        </HStack>
        {character.description &&
          (blurred ? (
            <Box position="relative">
              <Text color="fg.muted" fontSize="sm" lineClamp={3} filter="blur(6px)" userSelect="none" aria-hidden="true">
                {character.description}
              </Text>
              <VisuallyHidden>{t('sensitive.blurred', { rating: ratingName })}</VisuallyHidden>
            </Box>
          ) : (
            <Text color="fg.muted" fontSize="sm" lineClamp={3}>
              {character.description}
            </Text>
          ))}
        {blurred && onReveal && (
          <Button
            size="xs"
            variant="outline"
            alignSelf="flex-start"
            onClick={onReveal}
            aria-label={t('sensitive.showLabel', { rating: ratingName })}
            data-testid="reveal-button"
          >
            <EyeIcon />
            {t('sensitive.show')}
          </Button>
        )}
        {(shown.length > 0 || more > 0) && (
          <Wrap gap="1.5" data-testid="character-traits">
            {shown.map((trait) => (
              <Badge key={trait} colorPalette="purple" variant="outline" rounded="full">
                {trait}
              </Badge>
            ))}
            {more > 0 && (
              <Badge
                variant="subtle"
                rounded="full"
                title={t('characters.card.moreTraits', {
                  count: more,
                  traits: new Intl.ListFormat(i18n.language, { type: 'unit' }).format(character.personality.traits.slice(shown.length)),
                })}
              >
                +{more}
              </Badge>
            )}
          </Wrap>
        )}
      </Card.Body>
      <Card.Footer gap="2" flexWrap="wrap">
        <Button
          size="sm"
          colorPalette="purple"
          onClick={onChat}
          loading={starting}
          aria-label={t(variant === 'mine' ? 'characters.card.chatWith' : 'characters.card.startChatWith', { name: character.name })}
          flex={variant === 'discover' ? '1' : undefined}
        >
          <ChatIcon />
          {variant === 'mine' ? t('characters.card.chat') : t('characters.card.startChat')}
        </Button>
        {variant === 'discover' && onReport && (
          <IconButton
            aria-label={t('report.characterAction', { name: character.name })}
            title={t('report.action')}
            size="sm"
            variant="ghost"
            colorPalette="red"
            onClick={onReport}
          >
            <FlagIcon />
          </IconButton>
        )}
        {variant === 'mine' && (
          <Flex gap="1" ms="auto">
            <IconButton aria-label={t('characters.card.edit', { name: character.name })} size="sm" variant="ghost" onClick={onEdit}>
              <EditIcon />
            </IconButton>
            <Menu.Root positioning={{ placement: 'bottom-end' }}>
              <Menu.Trigger asChild>
                <IconButton aria-label={t('characters.card.export', { name: character.name })} size="sm" variant="ghost">
                  <DownloadIcon />
                </IconButton>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    {EXPORT_FORMATS.map((format) => (
                      <Menu.Item key={format} value={format} asChild>
                        <a href={cardDownloadUrl(character.id, format)} download>
                          {t(`characters.card.formats.${format}`)}
                        </a>
                      </Menu.Item>
                    ))}
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
            <IconButton
              aria-label={t('characters.card.delete', { name: character.name })}
              size="sm"
              variant="ghost"
              colorPalette="red"
              onClick={onDelete}
            >
              <TrashIcon />
            </IconButton>
          </Flex>
        )}
      </Card.Footer>
    </Card.Root>
  );
}
