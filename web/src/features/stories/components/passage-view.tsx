import { Badge, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { RegenerateIcon } from '../../../components/icons/chat-icons';
import { FormattedText } from '../../chat/components/formatted-text';
import type { StoryPassage } from '../hooks/use-live-story';
import { passageProse } from '../story-model';
import { BranchIcon } from '../../../components/icons/chat-icons';
import { BookmarkIcon, UndoIcon } from '../../../components/icons/story-icons';

export function TypingDots({ label }: { label: string }) {
  return (
    <HStack as="span" gap="1" py="1.5" aria-label={label} role="img" data-testid="story-typing">
      {[0, 1, 2].map((dot) => (
        <Box
          key={dot}
          as="span"
          w="1.5"
          h="1.5"
          rounded="full"
          bg="fg.muted"
          animation="pulse"
          animationDuration="1.2s"
          animationDelay={`${dot * 0.2}s`}
        />
      ))}
    </HStack>
  );
}

/** The member's move that led to a passage, styled like their chat messages. */
function MemberMove({ passage }: { passage: StoryPassage }) {
  const { t } = useTranslation();
  if (passage.actionKind === 'OPENING') {
    return (
      <Text fontSize="xs" textTransform="uppercase" letterSpacing="wider" color="purple.300" fontWeight="semibold">
        {t('stories.reader.opening')}
      </Text>
    );
  }
  return (
    <Stack align="flex-end" gap="1" data-testid="story-member-move">
      <Text fontSize="xs" color="fg.muted">
        {passage.actionKind === 'CHOICE' ? t('stories.reader.youChose') : t('stories.reader.youDid')}
      </Text>
      <Box
        px="4"
        py="2.5"
        rounded="2xl"
        roundedBottomRight="sm"
        bg="purple.700"
        color="white"
        maxW={{ base: '90%', md: '75%' }}
        whiteSpace="pre-wrap"
        overflowWrap="anywhere"
      >
        {passage.action}
      </Box>
    </Stack>
  );
}

export interface PassageActions {
  onGoBack: (passage: StoryPassage) => void;
  onRetell: (passage: StoryPassage) => void;
  onSavePoint: (passage: StoryPassage) => void;
  onShowBranches: () => void;
}

/**
 * One passage of the branch being read: the member's move, the narrator's text (growing while it streams, the
 * choices block held back), its state, and what can be done from it.
 */
export const PassageView = memo(function PassageView({
  passage,
  isCurrent,
  otherBranches,
  canAct,
  actions,
}: {
  passage: StoryPassage;
  /** The end of the branch being read: its choices are offered below it. */
  isCurrent: boolean;
  /** Other continuations of the passage before it (alternative branches at this point). */
  otherBranches: number;
  /** False while a passage is being written or a request is under way. */
  canAct: boolean;
  actions: PassageActions;
}) {
  const { t } = useTranslation();
  const isStreaming = passage.status === 'STREAMING';
  const isFailed = passage.status === 'FAILED';
  const isCancelled = passage.status === 'CANCELLED';
  const isRemoved = passage.moderationState === 'REMOVED';
  const prose = passageProse(passage.content, isStreaming);

  return (
    <Stack
      as="article"
      gap="3"
      data-testid="story-passage"
      data-passage-id={passage.id}
      data-status={passage.status.toLowerCase()}
      data-current={isCurrent || undefined}
      aria-busy={isStreaming || undefined}
    >
      <MemberMove passage={passage} />
      <Box
        px={{ base: '4', md: '5' }}
        py="4"
        rounded="xl"
        bg="bg.muted"
        borderWidth="1px"
        borderColor={isFailed ? 'red.500' : isCurrent ? 'purple.700' : 'border.muted'}
        fontSize={{ base: 'md', md: 'lg' }}
        lineHeight="tall"
        data-testid="story-passage-text"
      >
        {isRemoved ? (
          <Text fontStyle="italic" color="fg.muted">
            {t('stories.reader.removed')}
          </Text>
        ) : prose ? (
          <FormattedText content={prose} streaming={isStreaming} />
        ) : isStreaming ? (
          <TypingDots label={t('stories.reader.writingPassage')} />
        ) : null}
        {isStreaming && prose && (
          <Box mt="2">
            <TypingDots label={t('stories.reader.writingPassage')} />
          </Box>
        )}
        {isFailed && (
          <Text fontSize="sm" color="red.300" mt={prose ? '3' : undefined} role="alert" data-testid="story-passage-failed">
            {t('stories.reader.failed')}
          </Text>
        )}
      </Box>
      <HStack gap="1.5" flexWrap="wrap" fontSize="xs" color="fg.muted" minW="0">
        {passage.isDemo && (
          <Badge colorPalette="orange" variant="subtle" title={t('stories.demo.notice')} data-testid="story-demo-badge">
            {t('stories.demo.badge')}
          </Badge>
        )}
        {passage.savePoint && (
          <Badge colorPalette="yellow" variant="subtle" maxW="full" data-testid="story-save-point">
            <BookmarkIcon />
            <Box as="span" truncate>
              {t('stories.reader.savePointBadge', { name: passage.savePoint })}
            </Box>
          </Badge>
        )}
        {isCancelled && (
          <Text as="span" fontStyle="italic" data-testid="story-passage-stopped">
            {t('stories.reader.stopped')}
          </Text>
        )}
        {otherBranches > 0 && (
          <Button size="2xs" variant="ghost" colorPalette="purple" onClick={actions.onShowBranches}>
            <BranchIcon />
            {t('stories.reader.otherBranches', { count: otherBranches })}
          </Button>
        )}
        {!isStreaming && (
          <HStack gap="1" ms="auto" flexWrap="wrap" justify="flex-end">
            {!isCurrent && (
              <Button size="2xs" variant="ghost" disabled={!canAct} onClick={() => actions.onGoBack(passage)} data-testid="story-go-back">
                <UndoIcon />
                {t('stories.reader.goBack')}
              </Button>
            )}
            {isFailed && isCurrent ? (
              <Button size="2xs" variant="outline" colorPalette="red" disabled={!canAct} onClick={() => actions.onRetell(passage)}>
                <RegenerateIcon />
                {t('stories.reader.tryAgain')}
              </Button>
            ) : (
              <Button size="2xs" variant="ghost" disabled={!canAct} onClick={() => actions.onRetell(passage)}>
                <RegenerateIcon />
                {t('stories.reader.retell')}
              </Button>
            )}
            {!isFailed && (
              <Button size="2xs" variant="ghost" disabled={!canAct} onClick={() => actions.onSavePoint(passage)}>
                <BookmarkIcon />
                {t('stories.reader.savePoint')}
              </Button>
            )}
          </HStack>
        )}
      </HStack>
    </Stack>
  );
});
