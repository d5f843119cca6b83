import { Button, CloseButton, Dialog, Field, Input, Portal, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STORY_INPUT_LIMITS } from '../story-model';

/** Asks for a story's new title; empty falls back to the premise's first words on the server. */
export function RenameStoryDialog({
  initialTitle,
  open,
  saving,
  onSave,
  onClose,
}: {
  initialTitle: string;
  open: boolean;
  saving: boolean;
  onSave: (title: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(initialTitle);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(title.trim());
  };
  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && onClose()} placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content as="form" onSubmit={submit} mx="4">
            <Dialog.Header>
              <Dialog.Title>{t('stories.rename.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Field.Root>
                <Field.Label>{t('stories.rename.label')}</Field.Label>
                <Input
                  value={title}
                  onChange={(event) => setTitle(event.target.value)}
                  maxLength={STORY_INPUT_LIMITS.titleLength}
                  autoFocus
                />
              </Field.Root>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('stories.rename.cancel')}
              </Button>
              <Button type="submit" colorPalette="purple" loading={saving}>
                {t('stories.rename.save')}
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

/** Confirms deleting a story with all of its branches. */
export function DeleteStoryDialog({
  title,
  open,
  deleting,
  onConfirm,
  onClose,
}: {
  title: string;
  open: boolean;
  deleting: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      role="alertdialog"
      placement="center"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{t('stories.delete.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted">{t('stories.delete.description', { title })}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('stories.delete.cancel')}
              </Button>
              <Button colorPalette="red" loading={deleting} onClick={onConfirm}>
                {t('stories.delete.confirm')}
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
