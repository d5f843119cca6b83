import { Alert, Box, Button, Flex, IconButton, Textarea } from '@chakra-ui/react';
import { useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { plansPathFor } from '../../plans/plans';
import { SendIcon, StopIcon } from '../../../components/icons/chat-icons';

/** Spec §9: the chat input is three rows high. */
export const COMPOSER_ROWS = 3;

/**
 * The message box: Enter sends, Shift+Enter starts a new line, blank text is never sent, and the box
 * is disabled while a send is pending. While a reply streams, Stop replaces Send.
 */
export function ChatComposer({
  pending,
  replying,
  needsTokens,
  onSend,
  onStop,
  stopping,
  notice,
}: {
  pending: boolean;
  replying: boolean;
  needsTokens: boolean;
  /** Resolves true when the message was accepted (the box then clears). */
  onSend: (content: string) => Promise<boolean>;
  onStop: () => void;
  stopping: boolean;
  /** Shown above the box (where the next message goes, for one). */
  notice?: ReactNode;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const isBlank = value.trim().length === 0;

  const send = async () => {
    if (pending || isBlank) return;
    if (await onSend(value)) {
      setValue('');
      // The box was disabled while sending; give the focus back for the next line.
      requestAnimationFrame(() => textareaRef.current?.focus());
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
    <Box
      as="form"
      onSubmit={onSubmit}
      position="sticky"
      bottom="0"
      bg="bg"
      borderTopWidth="1px"
      borderColor="border.muted"
      px={{ base: '3', md: '6' }}
      pt="3"
      pb="max(0.75rem, env(safe-area-inset-bottom))"
      data-testid="chat-composer"
    >
      {needsTokens && (
        <Alert.Root status="warning" mb="3" size="sm" data-testid="insufficient-tokens-notice">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('outOfTokens.chatNotice.title')}</Alert.Title>
            <Alert.Description>{t('outOfTokens.chatNotice.description')}</Alert.Description>
          </Alert.Content>
          <Button asChild size="sm" colorPalette="purple" alignSelf="center">
            <RouterLink to={plansPathFor('tokens')}>{t('outOfTokens.chatNotice.action')}</RouterLink>
          </Button>
        </Alert.Root>
      )}
      {notice}
      <Flex gap="2" align="flex-end" maxW="3xl" mx="auto">
        <Textarea
          ref={textareaRef}
          rows={COMPOSER_ROWS}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={onKeyDown}
          onFocus={(event) => {
            // On phones the keyboard covers the lower half: keep the box in view once it is up.
            const target = event.currentTarget;
            window.setTimeout(() => target.scrollIntoView({ block: 'nearest' }), 300);
          }}
          disabled={pending}
          aria-label={t('chat.composer.label')}
          placeholder={t('chat.composer.placeholder')}
          resize="none"
          fontSize="md"
          data-testid="chat-input"
        />
        {replying ? (
          <Button
            aria-label={t('chat.composer.stopLabel')}
            variant="outline"
            colorPalette="red"
            onClick={onStop}
            loading={stopping}
            flexShrink={0}
          >
            <StopIcon />
            {t('chat.composer.stop')}
          </Button>
        ) : (
          <IconButton
            type="submit"
            aria-label={t('chat.composer.send')}
            colorPalette="purple"
            disabled={pending || isBlank}
            loading={pending}
            flexShrink={0}
          >
            <SendIcon />
          </IconButton>
        )}
      </Flex>
    </Box>
  );
}
