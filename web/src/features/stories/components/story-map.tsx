import { Alert, Badge, Box, Button, chakra, Heading, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useMemo, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StoryMapNodeFieldsFragment } from '../../../gql/graphql';
import { branchMapRows } from '../story-model';
import { BookmarkIcon } from '../../../components/icons/story-icons';

export type StoryMapNode = StoryMapNodeFieldsFragment;

/** Deeper branches stop indenting here, so a phone never scrolls sideways. */
const MAX_INDENT_LEVELS = 6;

function NodeStatus({ node }: { node: StoryMapNode }) {
  const { t } = useTranslation();
  if (node.status === 'STREAMING') return <Badge colorPalette="purple">{t('stories.map.writing')}</Badge>;
  if (node.status === 'FAILED') return <Badge colorPalette="red">{t('stories.map.failed')}</Badge>;
  if (node.status === 'CANCELLED') return <Badge colorPalette="gray">{t('stories.map.stopped')}</Badge>;
  return null;
}

/**
 * The story's tree: save points first, then every passage with the move that led to it and its first words, the
 * current one highlighted and the branch being read marked. Arrow keys move between passages; Enter goes there.
 */
export function StoryMap({
  nodes,
  loading,
  failed,
  currentId,
  pathIds,
  disabled,
  onGo,
}: {
  nodes: readonly StoryMapNode[];
  loading: boolean;
  failed: boolean;
  currentId: string | null;
  pathIds: readonly string[];
  disabled: boolean;
  onGo: (node: StoryMapNode) => void;
}) {
  const { t } = useTranslation();
  const rows = useMemo(() => branchMapRows(nodes), [nodes]);
  const onPath = useMemo(() => new Set(pathIds), [pathIds]);
  const savePoints = nodes.filter((node) => node.savePoint);
  const listRef = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const buttons = Array.from(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-map-node]') ?? []);
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      event.key === 'ArrowDown'
        ? index + 1
        : event.key === 'ArrowUp'
          ? index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? buttons.length - 1
              : null;
    if (next === null || buttons.length === 0) return;
    event.preventDefault();
    buttons[Math.max(0, Math.min(buttons.length - 1, next))]?.focus();
  };

  if (loading && nodes.length === 0) {
    return (
      <Stack gap="2" aria-busy="true">
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} h="14" rounded="md" />
        ))}
      </Stack>
    );
  }
  if (failed && nodes.length === 0) {
    return (
      <Alert.Root status="error" size="sm">
        <Alert.Indicator />
        <Alert.Title>{t('stories.map.loadFailed')}</Alert.Title>
      </Alert.Root>
    );
  }

  return (
    <Stack gap="5" minW="0" data-testid="story-map">
      <Stack as="section" aria-labelledby="story-save-points-heading" gap="2">
        <Heading as="h3" id="story-save-points-heading" size="sm">
          {t('stories.map.savePoints')}
        </Heading>
        {savePoints.length === 0 ? (
          <Text fontSize="sm" color="fg.muted">
            {t('stories.map.noSavePoints')}
          </Text>
        ) : (
          <Stack as="ul" gap="1" listStyleType="none" m="0" p="0">
            {savePoints.map((node) => (
              <li key={node.id}>
                <Button
                  size="sm"
                  variant={node.id === currentId ? 'subtle' : 'ghost'}
                  colorPalette="yellow"
                  w="full"
                  justifyContent="flex-start"
                  disabled={disabled}
                  onClick={() => onGo(node)}
                  aria-current={node.id === currentId ? 'location' : undefined}
                  data-testid="story-save-point-link"
                >
                  <BookmarkIcon />
                  <Box as="span" truncate>
                    {node.savePoint}
                  </Box>
                </Button>
              </li>
            ))}
          </Stack>
        )}
      </Stack>

      <Stack as="section" aria-labelledby="story-tree-heading" gap="2" minW="0">
        <Heading as="h3" id="story-tree-heading" size="sm">
          {t('stories.map.treeLabel')}
        </Heading>
        <Text fontSize="xs" color="fg.muted">
          {t('stories.map.keyboardHint')}
        </Text>
        <Stack as="ol" ref={listRef} gap="1" listStyleType="none" m="0" p="0" onKeyDown={onKeyDown} minW="0">
          {rows.map(({ node, level, startsBranch }) => {
            const isCurrent = node.id === currentId;
            const isOnPath = onPath.has(node.id);
            const indent = Math.min(level, MAX_INDENT_LEVELS);
            const move = node.actionKind === 'OPENING' ? t('stories.map.opening') : node.action;
            return (
              <Box
                as="li"
                key={node.id}
                ps={`${indent * 0.875}rem`}
                borderStartWidth={indent > 0 ? '2px' : undefined}
                borderColor={isOnPath ? 'purple.600' : 'border.muted'}
                ms={indent > 0 ? '1' : undefined}
                mt={startsBranch ? '2' : undefined}
                minW="0"
              >
                <chakra.button
                  type="button"
                  data-map-node=""
                  data-testid="story-map-node"
                  data-node-id={node.id}
                  data-current={isCurrent || undefined}
                  aria-current={isCurrent ? 'location' : undefined}
                  disabled={disabled}
                  onClick={() => onGo(node)}
                  display="block"
                  w="full"
                  textAlign="start"
                  px="3"
                  py="2"
                  rounded="md"
                  borderWidth="1px"
                  borderColor={isCurrent ? 'purple.400' : 'transparent'}
                  bg={isCurrent ? 'purple.900/60' : isOnPath ? 'bg.muted' : undefined}
                  _hover={{ bg: 'bg.emphasized' }}
                  _focusVisible={{ outline: '2px solid', outlineColor: 'purple.400', outlineOffset: '1px' }}
                  _disabled={{ opacity: 0.6, cursor: 'not-allowed' }}
                  cursor="pointer"
                  minW="0"
                >
                  <HStack gap="1.5" minW="0" flexWrap="wrap">
                    <Text
                      as="span"
                      fontSize="sm"
                      fontWeight="semibold"
                      color={node.actionKind === 'OPENING' ? 'purple.300' : 'fg'}
                      lineClamp={2}
                      overflowWrap="anywhere"
                    >
                      {move}
                    </Text>
                    {node.savePoint && (
                      <Badge colorPalette="yellow" variant="subtle" size="sm" maxW="full">
                        <BookmarkIcon />
                        <Box as="span" truncate>
                          {node.savePoint}
                        </Box>
                      </Badge>
                    )}
                    <NodeStatus node={node} />
                    {isCurrent && (
                      <Badge colorPalette="purple" size="sm">
                        {t('stories.map.current')}
                      </Badge>
                    )}
                  </HStack>
                  {node.excerpt && (
                    <Text as="span" display="block" fontSize="xs" color="fg.muted" lineClamp={2} overflowWrap="anywhere" mt="0.5">
                      {node.excerpt}
                    </Text>
                  )}
                </chakra.button>
              </Box>
            );
          })}
        </Stack>
      </Stack>
    </Stack>
  );
}
