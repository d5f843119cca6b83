import { Button, CloseButton, Dialog, Field, Input, Portal, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STORY_INPUT_LIMITS } from '../story-model';

/** Names a passage as a save point, renames it, or removes it (an empty name). */
export function SavePointDialog({
  initialName,
  open,
  saving,
  onSave,
  onClose,
}: {
  /** The passage's current save point name; null when it is not one yet. */
  initialName: string | null;
  open: boolean;
  saving: boolean;
  onSave: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) onSave(name.trim());
  };
  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && onClose()} placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content as="form" onSubmit={submit} mx="4">
            <Dialog.Header>
              <Dialog.Title>{t('stories.savePoint.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted" mb="4">
                {t('stories.savePoint.description')}
              </Text>
              <Field.Root>
                <Field.Label>{t('stories.savePoint.label')}</Field.Label>
                <Input
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  maxLength={STORY_INPUT_LIMITS.savePointLength}
                  placeholder={t('stories.savePoint.placeholder')}
                  autoFocus
                />
              </Field.Root>
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              {initialName && (
                <Button variant="ghost" colorPalette="red" me="auto" disabled={saving} onClick={() => onSave('')}>
                  {t('stories.savePoint.remove')}
                </Button>
              )}
              <Button variant="outline" onClick={onClose}>
                {t('stories.savePoint.cancel')}
              </Button>
              <Button type="submit" colorPalette="purple" loading={saving} disabled={!name.trim()}>
                {t('stories.savePoint.save')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
