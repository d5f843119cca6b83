import { Button, CloseButton, Dialog, Flex, Input, Portal, Skeleton, Stack, Text, Textarea } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field';
import { FULL_ON_PHONES_CONTENT } from '../../../components/responsive-dialog';
import type { MemberPersonaFieldsFragment } from '../../../gql/graphql';
import { getFieldErrors } from '../../../lib/graphql-errors';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { MyPersonaDocument, UpdatePersonaDocument } from '../operations';

/** The server's limits (schema CHAT_PERSONA_NAME_LENGTH / CHAT_PERSONA_DESCRIPTION_LENGTH). */
export const PERSONA_LIMITS = { nameLength: 60, descriptionLength: 1000 } as const;

function PersonaForm({ persona, onClose }: { persona: MemberPersonaFieldsFragment; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { run, pending: saving } = useMutationToast();
  const [name, setName] = useState(persona.name);
  const [description, setDescription] = useState(persona.description);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // With no name set, displayName is the member's first name: what an empty field falls back to.
  const fallbackName = persona.name ? null : persona.displayName;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldErrors({});
    const saved = await run({
      mutation: UpdatePersonaDocument,
      variables: { input: { name: name.trim(), description: description.trim() } },
      update(cache, { data }) {
        if (data) cache.writeQuery({ query: MyPersonaDocument, data: { myPersona: data.updatePersona } });
      },
      success: { title: t('chatSettings.persona.saved') },
      failure: { title: t('chatSettings.persona.failed'), variant: 'destructive' },
      // The fields say what is wrong; the standard toast still follows.
      handleError: (error) => {
        setFieldErrors(getFieldErrors(error));
        return false;
      },
    });
    if (saved) onClose();
  };

  return (
    <Stack as="form" gap="0" flex="1" minH="0" onSubmit={(event: FormEvent) => void submit(event)}>
      <Dialog.Body>
        <Stack gap="5">
          <Text color="fg.muted" fontSize="sm">
            {t('chatSettings.persona.intro')}
          </Text>
          <FormField
            label={t('chatSettings.persona.name')}
            error={fieldErrors['name']}
            helperText={
              fallbackName ? t('chatSettings.persona.nameHelpFallback', { name: fallbackName }) : t('chatSettings.persona.nameHelp')
            }
          >
            <Input
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={PERSONA_LIMITS.nameLength}
              placeholder={fallbackName ?? undefined}
              autoComplete="off"
            />
          </FormField>
          <FormField
            label={t('chatSettings.persona.description')}
            error={fieldErrors['description']}
            helperText={t('chatSettings.persona.descriptionHelp', {
              max: new Intl.NumberFormat(i18n.language).format(PERSONA_LIMITS.descriptionLength),
            })}
          >
            <Textarea
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              maxLength={PERSONA_LIMITS.descriptionLength}
              rows={4}
              placeholder={t('chatSettings.persona.descriptionPlaceholder')}
            />
          </FormField>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Flex gap="3" justify="flex-end" w="full">
          <Button variant="outline" onClick={onClose}>
            {t('chatSettings.cancel')}
          </Button>
          <Button type="submit" colorPalette="purple" loading={saving}>
            {t('chatSettings.save')}
          </Button>
        </Flex>
      </Dialog.Footer>
    </Stack>
  );
}

function PersonaFormLoader({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { data, error } = useQuery(MyPersonaDocument, { fetchPolicy: 'cache-and-network', errorPolicy: 'all' });
  if (data?.myPersona) return <PersonaForm persona={data.myPersona} onClose={onClose} />;
  return (
    <Dialog.Body>
      {error ? (
        <Text color="fg.error" role="alert">
          {t('chatSettings.persona.loadFailed')}
        </Text>
      ) : (
        <Stack gap="4" aria-busy="true">
          <Skeleton h="10" />
          <Skeleton h="24" />
        </Stack>
      )}
    </Dialog.Body>
  );
}

/** Who the member plays in chats: the name {{user}} stands for, and what characters are told about them. */
export function PersonaDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && onClose()} size={{ base: 'full', md: 'md' }} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="persona-dialog" {...FULL_ON_PHONES_CONTENT}>
            <Dialog.Header>
              <Dialog.Title>{t('chatSettings.persona.title')}</Dialog.Title>
            </Dialog.Header>
            {open && <PersonaFormLoader onClose={onClose} />}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
