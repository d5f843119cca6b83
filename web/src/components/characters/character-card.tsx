import { Avatar, Badge, Button, Card, Flex, Heading, HStack, IconButton, Menu, Portal, Stack, Text, Wrap } from '@chakra-ui/react';
import type { CharacterFieldsFragment } from '../../gql/graphql';
import { cardDownloadUrl, visibleTraits, type CardFormat } from '../../lib/chat-character-form';
import { ChatIcon } from '../icons';
import { DownloadIcon, EditIcon, TrashIcon } from '../chat/chat-icons';

const EXPORT_FORMATS: { format: CardFormat; label: string }[] = [
  { format: 'png', label: 'PNG card' },
  { format: 'json_v2', label: 'JSON V2' },
  { format: 'json_v3', label: 'JSON V3' },
];

function characterInitial(name: string): string {
  return Array.from(name.trim())[0]?.toUpperCase() ?? '?';
}

/** A character: avatar, name, description, up to three traits and +N, visibility, and its actions. */
export function CharacterCard({
  character,
  variant,
  starting,
  onChat,
  onEdit,
  onDelete,
}: {
  character: CharacterFieldsFragment;
  /** 'mine': Chat, edit, export, delete. 'discover': Start Chat. */
  variant: 'mine' | 'discover';
  starting: boolean;
  onChat: () => void;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const { shown, more } = visibleTraits(character.personality.traits);
  const headingId = `character-${variant}-${character.id}`;

  return (
    <Card.Root as="article" variant="outline" h="full" aria-labelledby={headingId} data-testid={`${variant}-character-card`}>
      <Card.Body gap="3">
        <HStack gap="3" align="flex-start">
          <Avatar.Root size="lg" colorPalette="purple" flexShrink={0}>
            <Avatar.Fallback>{characterInitial(character.name)}</Avatar.Fallback>
            {character.avatar && <Avatar.Image src={character.avatar} alt="" />}
          </Avatar.Root>
          <Stack gap="1" minW="0" flex="1">
            <Heading as="h3" size="md" id={headingId} truncate>
              {character.name}
            </Heading>
            {variant === 'discover' && character.creator && (
              <Text fontSize="xs" color="fg.muted" truncate>
                by {character.creator}
              </Text>
            )}
            <Badge alignSelf="flex-start" colorPalette={character.isPublic ? 'green' : 'gray'} variant="subtle">
              {character.isPublic ? 'Public' : 'Private'}
            </Badge>
          </Stack>
        </HStack>
        {character.description && (
          <Text color="fg.muted" fontSize="sm" lineClamp={3}>
            {character.description}
          </Text>
        )}
        {(shown.length > 0 || more > 0) && (
          <Wrap gap="1.5" data-testid="character-traits">
            {shown.map((trait) => (
              <Badge key={trait} colorPalette="purple" variant="outline" rounded="full">
                {trait}
              </Badge>
            ))}
            {more > 0 && (
              <Badge variant="subtle" rounded="full" title={character.personality.traits.slice(shown.length).join(', ')}>
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
          aria-label={variant === 'mine' ? `Chat with ${character.name}` : `Start Chat with ${character.name}`}
          flex={variant === 'discover' ? '1' : undefined}
        >
          <ChatIcon />
          {variant === 'mine' ? 'Chat' : 'Start Chat'}
        </Button>
        {variant === 'mine' && (
          <Flex gap="1" ms="auto">
            <IconButton aria-label={`Edit ${character.name}`} size="sm" variant="ghost" onClick={onEdit}>
              <EditIcon />
            </IconButton>
            <Menu.Root positioning={{ placement: 'bottom-end' }}>
              <Menu.Trigger asChild>
                <IconButton aria-label={`Export ${character.name}`} size="sm" variant="ghost">
                  <DownloadIcon />
                </IconButton>
              </Menu.Trigger>
              <Portal>
                <Menu.Positioner>
                  <Menu.Content>
                    {EXPORT_FORMATS.map(({ format, label }) => (
                      <Menu.Item key={format} value={format} asChild>
                        <a href={cardDownloadUrl(character.id, format)} download>
                          {label}
                        </a>
                      </Menu.Item>
                    ))}
                  </Menu.Content>
                </Menu.Positioner>
              </Portal>
            </Menu.Root>
            <IconButton aria-label={`Delete ${character.name}`} size="sm" variant="ghost" colorPalette="red" onClick={onDelete}>
              <TrashIcon />
            </IconButton>
          </Flex>
        )}
      </Card.Footer>
    </Card.Root>
  );
}
