import { Box, Button, HStack, Text, Textarea } from '@chakra-ui/react';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** The server's limit for a message (CHAT_LIMITS.messageLength). */
const MESSAGE_MAX_LENGTH = 8000;
const EDITOR_ROWS = 4;

/**
 * Edits a message in place. Saving writes a new version beside the original: a member's message is sent again and
 * answered, a reply is saved as written. Escape cancels; Ctrl/Cmd+Enter saves.
 */
export function MessageEditor({
  initial,
  isUser,
  saving,
  disabled,
  onSave,
  onCancel,
}: {
  initial: string;
  isUser: boolean;
  saving: boolean;
  /** A reply is being written: saving waits. */
  disabled: boolean;
  onSave: (content: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const [value, setValue] = useState(initial);
  const canSave = value.trim().length > 0 && value.trim() !== initial.trim() && !disabled;

  const save = () => {
    if (canSave && !saving) onSave(value);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    }
  };

  return (
    <Box as="form" onSubmit={onSubmit} w="full" data-testid="message-editor">
      <Textarea
        value={value}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={onKeyDown}
        aria-label={isUser ? t('chat.tree.edit.userLabel') : t('chat.tree.edit.replyLabel')}
        aria-describedby={hintId}
        maxLength={MESSAGE_MAX_LENGTH}
        rows={EDITOR_ROWS}
        resize="vertical"
        maxH="60vh"
        fontSize="md"
        autoFocus
      />
      <Text id={hintId} fontSize="xs" color="fg.muted" mt="1.5">
        {isUser ? t('chat.tree.edit.userHint') : t('chat.tree.edit.replyHint')}
      </Text>
      <HStack justify="flex-end" gap="2" mt="2" flexWrap="wrap">
        <Button size="sm" variant="outline" onClick={onCancel}>
          {t('chat.tree.edit.cancel')}
        </Button>
        <Button type="submit" size="sm" colorPalette="purple" loading={saving} disabled={!canSave}>
          {isUser ? t('chat.tree.edit.send') : t('chat.tree.edit.save')}
        </Button>
      </HStack>
    </Box>
  );
}
