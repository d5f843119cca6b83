import { IconButton, Menu, Portal } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SlidersIcon } from './chat-settings-icons';
import { ConversationSettingsDialog } from './conversation-settings-dialog';
import { PersonaDialog } from './persona-dialog';

/** The chat header's settings button: this conversation's reply settings, and who the member plays. */
export function ChatSettingsMenu({ conversationId }: { conversationId: string }) {
  const { t } = useTranslation();
  const [openDialog, setOpenDialog] = useState<'conversation' | 'persona' | null>(null);
  const close = () => setOpenDialog(null);
  return (
    <>
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          <IconButton aria-label={t('chatSettings.menu.label')} title={t('chatSettings.menu.label')} variant="ghost" size="sm">
            <SlidersIcon />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="52">
              <Menu.Item value="conversation-settings" onSelect={() => setOpenDialog('conversation')}>
                {t('chatSettings.menu.conversation')}
              </Menu.Item>
              <Menu.Item value="persona" onSelect={() => setOpenDialog('persona')}>
                {t('chatSettings.menu.persona')}
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      <ConversationSettingsDialog conversationId={conversationId} open={openDialog === 'conversation'} onClose={close} />
      <PersonaDialog open={openDialog === 'persona'} onClose={close} />
    </>
  );
}
