import { Button, CloseButton, Dialog, Field, Flex, NativeSelect, Portal, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FULL_ON_PHONES_CONTENT } from '../../../components/responsive-dialog';
import type { ConversationSettingsQuery } from '../../../gql/graphql';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { CharacterSamplingDocument, ConversationSettingsDocument, UpdateConversationSettingsDocument } from '../operations';
import { hasSamplerProblems, samplerProblems, toSamplerForm, toSamplerInput, type SamplerForm } from '../sampler-model';
import { SamplerFields } from './sampler-fields';

type LoadedConversation = NonNullable<ConversationSettingsQuery['conversation']>;
type ChatModels = ConversationSettingsQuery['chatModels'];

/** The empty option: the provider's default model. */
const DEFAULT_MODEL = '';

function ModelSelect({ models, value, onChange }: { models: ChatModels; value: string; onChange: (model: string) => void }) {
  const { t } = useTranslation();
  // A model saved earlier that the provider no longer lists stays choosable, so saving does not change it silently.
  const choices = value && !models.models.includes(value) ? [...models.models, value] : models.models;
  return (
    <Field.Root>
      <Field.Label>{t('chatSettings.conversation.model')}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field value={value} onChange={(event) => onChange(event.target.value)} data-testid="conversation-model">
          <option value={DEFAULT_MODEL}>{t('chatSettings.conversation.defaultModel', { model: models.defaultModel })}</option>
          {choices
            .filter((model) => model !== models.defaultModel)
            .map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Field.HelperText>{t('chatSettings.conversation.modelHelp')}</Field.HelperText>
    </Field.Root>
  );
}

function SettingsForm({ conversation, models, onClose }: { conversation: LoadedConversation; models: ChatModels; onClose: () => void }) {
  const { t } = useTranslation();
  const { run, pending: saving } = useMutationToast();
  const [sampling, setSampling] = useState<SamplerForm>(() => toSamplerForm(conversation.sampling));
  const [model, setModel] = useState(conversation.model ?? DEFAULT_MODEL);
  const { data: characterData } = useQuery(CharacterSamplingDocument, {
    variables: { id: conversation.characterId ?? '' },
    skip: !conversation.characterId,
    errorPolicy: 'all',
  });
  const inherited = characterData?.character?.sampling ?? {};
  const hasProblems = hasSamplerProblems(samplerProblems(sampling));
  // Only a provider that lists several models offers a choice.
  const canChooseModel = models.models.length > 1 || Boolean(conversation.model);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (hasProblems) return;
    const saved = await run({
      mutation: UpdateConversationSettingsDocument,
      variables: {
        id: conversation.id,
        input: { sampling: toSamplerInput(sampling), ...(canChooseModel ? { model: model || null } : {}) },
      },
      success: { title: t('chatSettings.conversation.saved') },
      failure: { title: t('chatSettings.conversation.failed'), variant: 'destructive' },
    });
    if (saved) onClose();
  };

  return (
    <Stack as="form" gap="0" flex="1" minH="0" onSubmit={(event: FormEvent) => void submit(event)}>
      <Dialog.Body>
        <Stack gap="6">
          {canChooseModel && <ModelSelect models={models} value={model} onChange={setModel} />}
          <SamplerFields value={sampling} onChange={setSampling} inherited={inherited} />
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Flex gap="3" justify="flex-end" w="full">
          <Button variant="outline" onClick={onClose}>
            {t('chatSettings.cancel')}
          </Button>
          <Button type="submit" colorPalette="purple" loading={saving} disabled={hasProblems}>
            {t('chatSettings.save')}
          </Button>
        </Flex>
      </Dialog.Footer>
    </Stack>
  );
}

function SettingsLoader({ conversationId, onClose }: { conversationId: string; onClose: () => void }) {
  const { t } = useTranslation();
  // Fresh each time: the settings may have changed in another tab.
  const { data, error } = useQuery(ConversationSettingsDocument, {
    variables: { id: conversationId },
    fetchPolicy: 'network-only',
    errorPolicy: 'all',
  });
  if (data?.conversation) return <SettingsForm conversation={data.conversation} models={data.chatModels} onClose={onClose} />;
  return (
    <Dialog.Body>
      {error || data ? (
        <Text color="fg.error" role="alert">
          {t('chatSettings.conversation.loadFailed')}
        </Text>
      ) : (
        <Stack gap="4" aria-busy="true">
          <Skeleton h="10" />
          <Skeleton h="32" />
        </Stack>
      )}
    </Dialog.Body>
  );
}

/** One conversation's model and sampler settings, over its character's. */
export function ConversationSettingsDialog({
  conversationId,
  open,
  onClose,
}: {
  conversationId: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: 'full', md: 'lg' }}
      placement="center"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="conversation-settings-dialog" {...FULL_ON_PHONES_CONTENT}>
            <Dialog.Header>
              <Dialog.Title>{t('chatSettings.conversation.title')}</Dialog.Title>
            </Dialog.Header>
            {open && <SettingsLoader conversationId={conversationId} onClose={onClose} />}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
