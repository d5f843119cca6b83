import { Alert, Badge, Box, Button, Field, Flex, Heading, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { StopIcon } from '../../../components/icons/chat-icons';
import { plansPathFor } from '../../plans/plans';
import type { StoryPassage } from '../hooks/use-live-story';
import { STORY_INPUT_LIMITS } from '../story-model';

/** The member's own action: Enter continues, Shift+Enter starts a new line, blank text is never sent. */
function OwnActionForm({ disabled, onAct }: { disabled: boolean; onAct: (action: string) => Promise<boolean> }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [sending, setSending] = useState(false);
  const isBlank = value.trim().length === 0;

  const send = async () => {
    if (disabled || sending || isBlank) return;
    setSending(true);
    try {
      if (await onAct(value.trim())) setValue('');
    } finally {
      setSending(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  return (
    <Box as="form" onSubmit={onSubmit}>
      <Field.Root>
        <Field.Label>{t('stories.reader.ownActionLabel')}</Field.Label>
        <Flex gap="2" align="flex-end" w="full">
          <Textarea
            value={value}
            onChange={(event) => setValue(event.target.value)}
            onKeyDown={onKeyDown}
            maxLength={STORY_INPUT_LIMITS.actionLength}
            rows={2}
            resize="none"
            placeholder={t('stories.reader.ownActionPlaceholder')}
            disabled={sending}
            data-testid="story-action-input"
          />
          <Button type="submit" colorPalette="purple" disabled={disabled || isBlank} loading={sending} flexShrink={0}>
            {t('stories.reader.ownActionSend')}
          </Button>
        </Flex>
        <Field.HelperText alignSelf="flex-end">
          {t('stories.new.length', { length: value.length, max: STORY_INPUT_LIMITS.actionLength })}
        </Field.HelperText>
      </Field.Root>
    </Box>
  );
}

/**
 * What comes after the current passage: Stop while it is written; then its choices (an explored one leads back into
 * its branch for free) and the member's own action.
 */
export function StoryNextMove({
  passage,
  busy,
  stopping,
  needsTokens,
  exploredChoices,
  onChoose,
  onAct,
  onStop,
}: {
  passage: StoryPassage | undefined;
  /** A request is under way: choices wait. */
  busy: boolean;
  stopping: boolean;
  needsTokens: boolean;
  /** Indexes of choices already taken from this passage (their branches exist). */
  exploredChoices: ReadonlySet<number>;
  onChoose: (choiceIndex: number) => void;
  onAct: (action: string) => Promise<boolean>;
  onStop: () => void;
}) {
  const { t } = useTranslation();
  if (!passage) return null;
  const streaming = passage.status === 'STREAMING';

  if (streaming) {
    return (
      <Flex justify="center" py="2">
        <Button
          variant="outline"
          colorPalette="red"
          onClick={onStop}
          loading={stopping}
          aria-label={t('stories.reader.stopLabel')}
          data-testid="story-stop"
        >
          <StopIcon />
          {t('stories.reader.stop')}
        </Button>
      </Flex>
    );
  }
  // A failed passage is retold from its own controls; nothing else follows it.
  if (passage.status === 'FAILED' || passage.moderationState === 'REMOVED') return null;

  const choices = passage.choices;
  return (
    <Stack as="section" aria-labelledby="story-next-heading" gap="4" data-testid="story-next-move">
      {needsTokens && (
        <Alert.Root status="warning" size="sm" data-testid="insufficient-tokens-notice">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('outOfTokens.chatNotice.title')}</Alert.Title>
          </Alert.Content>
          <Button asChild size="sm" colorPalette="purple" alignSelf="center">
            <RouterLink to={plansPathFor('tokens')}>{t('outOfTokens.chatNotice.action')}</RouterLink>
          </Button>
        </Alert.Root>
      )}
      <Heading as="h2" id="story-next-heading" size="md">
        {t('stories.reader.choicesHeading')}
      </Heading>
      {choices.length > 0 ? (
        <Stack as="ol" gap="2" listStyleType="none" m="0" p="0">
          {choices.map((choice, index) => (
            <li key={`${index}-${choice}`}>
              <Button
                variant="outline"
                colorPalette="purple"
                w="full"
                h="auto"
                minH="11"
                py="2.5"
                px="4"
                whiteSpace="normal"
                textAlign="start"
                justifyContent="flex-start"
                fontWeight="normal"
                disabled={busy}
                onClick={() => onChoose(index)}
                data-testid="story-choice"
              >
                <Text as="span" fontWeight="semibold" color="purple.300" flexShrink={0}>
                  {index + 1}.
                </Text>
                <Text as="span" flex="1" minW="0" overflowWrap="anywhere">
                  {choice}
                </Text>
                {exploredChoices.has(index) && (
                  <Badge size="sm" variant="subtle" colorPalette="gray" flexShrink={0} title={t('stories.reader.exploredHint')}>
                    {t('stories.reader.explored')}
                  </Badge>
                )}
              </Button>
            </li>
          ))}
        </Stack>
      ) : (
        <Text color="fg.muted">{t('stories.reader.noChoices')}</Text>
      )}
      <OwnActionForm disabled={busy} onAct={onAct} />
      <Text fontSize="xs" color="fg.muted">
        {t('stories.reader.tokenCost')}
      </Text>
    </Stack>
  );
}
