import {
  Box,
  Button,
  CloseButton,
  Collapsible,
  Dialog,
  Field,
  Flex,
  HStack,
  IconButton,
  Input,
  Portal,
  Stack,
  Switch,
  Text,
  Textarea,
  Wrap,
} from '@chakra-ui/react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hasSamplerProblems, SamplerFields, samplerProblems, type SamplerForm } from '../../chat-settings';
import { addTrait, CHARACTER_LIMITS, hasTrait, needsRating, removeTrait, type CharacterFormValues } from '../character-form-model';
import { ChevronRightIcon, PlusIcon } from '../../../components/icons/chat-icons';
import { CloseIcon } from '../../../components/icons/icons';
import { RatingChoice } from '../../moderation/components/rating-parts';
import { FULL_ON_PHONES_CONTENT } from '../../../components/responsive-dialog';

/**
 * The Create Character dialog (also used to edit): name, description, traits with suggestions,
 * public switch with the rating a public character is shown at, an Advanced section with the
 * roleplay card fields, and (when the page passes `sampling`) the reply settings.
 */
export function CharacterFormDialog({
  mode,
  open,
  values,
  onChange,
  suggestedTraits,
  saving,
  onSubmit,
  onClose,
  sampling,
  onSamplingChange,
}: {
  mode: 'create' | 'edit';
  open: boolean;
  values: CharacterFormValues;
  onChange: (values: CharacterFormValues) => void;
  suggestedTraits: readonly string[];
  saving: boolean;
  onSubmit: () => void;
  onClose: () => void;
  /** The character's sampler settings as a form; the section shows when given. */
  sampling?: SamplerForm;
  onSamplingChange?: (sampling: SamplerForm) => void;
}) {
  const { t } = useTranslation();
  const [traitInput, setTraitInput] = useState('');
  const [ratingError, setRatingError] = useState<string | undefined>();
  const [isReplySettingsOpen, setReplySettingsOpen] = useState(false);
  const set = <K extends keyof CharacterFormValues>(key: K, value: CharacterFormValues[K]) => onChange({ ...values, [key]: value });

  const addTypedTrait = () => {
    const next = addTrait(values.traits, traitInput);
    if (next.length !== values.traits.length) set('traits', next);
    if (traitInput.trim()) setTraitInput('');
  };

  const onTraitKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // Enter adds the trait; it must not submit the whole form.
    event.preventDefault();
    addTypedTrait();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (needsRating(values)) {
      setRatingError(t('ratings.publish.required'));
      return;
    }
    if (sampling && hasSamplerProblems(samplerProblems(sampling))) {
      // The problems are shown beside the fields: make sure they are in view.
      setReplySettingsOpen(true);
      return;
    }
    onSubmit();
  };

  const title = mode === 'create' ? t('characters.form.createTitle') : t('characters.form.editTitle');
  // {{char}} and {{user}} are the card macros the member types themselves: shown as they are in every language.
  const macros = { charMacro: '{{char}}', userMacro: '{{user}}' };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: 'full', md: 'lg' }}
      scrollBehavior="inside"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content as="form" onSubmit={submit} data-testid="character-form" {...FULL_ON_PHONES_CONTENT}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="5">
                <Field.Root>
                  <Field.Label>{t('characters.form.name')}</Field.Label>
                  <Input
                    value={values.name}
                    onChange={(event) => set('name', event.target.value)}
                    maxLength={CHARACTER_LIMITS.nameLength}
                    placeholder={t('characters.form.namePlaceholder')}
                  />
                </Field.Root>
                <Field.Root>
                  <Field.Label>{t('characters.form.description')}</Field.Label>
                  <Textarea
                    value={values.description}
                    onChange={(event) => set('description', event.target.value)}
                    rows={3}
                    placeholder={t('characters.form.descriptionPlaceholder')}
                  />
                </Field.Root>

                <Stack gap="2">
                  <Field.Root>
                    <Field.Label>{t('characters.form.traits')}</Field.Label>
                    <HStack w="full">
                      <Input
                        value={traitInput}
                        onChange={(event) => setTraitInput(event.target.value)}
                        onKeyDown={onTraitKeyDown}
                        maxLength={CHARACTER_LIMITS.traitLength}
                        placeholder={t('characters.form.traitPlaceholder')}
                      />
                      <IconButton aria-label={t('characters.form.addTrait')} variant="outline" onClick={addTypedTrait}>
                        <PlusIcon />
                      </IconButton>
                    </HStack>
                    <Field.HelperText>{t('characters.form.traitsHelp')}</Field.HelperText>
                  </Field.Root>
                  {values.traits.length > 0 && (
                    <Wrap
                      gap="2"
                      as="ul"
                      listStyleType="none"
                      m="0"
                      p="0"
                      aria-label={t('characters.form.chosenTraits')}
                      data-testid="chosen-traits"
                    >
                      {values.traits.map((trait) => (
                        <li key={trait}>
                          <Button
                            size="xs"
                            colorPalette="purple"
                            variant="subtle"
                            rounded="full"
                            aria-label={t('characters.form.removeTrait', { trait })}
                            onClick={() => set('traits', removeTrait(values.traits, trait))}
                          >
                            {trait}
                            <CloseIcon boxSize="3" />
                          </Button>
                        </li>
                      ))}
                    </Wrap>
                  )}
                  {suggestedTraits.length > 0 && (
                    <Box role="group" aria-labelledby="suggested-traits-label">
                      <Text id="suggested-traits-label" fontSize="sm" color="fg.muted" mb="2">
                        {t('characters.form.suggestedTraits')}
                      </Text>
                      <Wrap gap="2">
                        {suggestedTraits.map((trait) => (
                          <Button
                            key={trait}
                            size="xs"
                            variant="outline"
                            rounded="full"
                            disabled={hasTrait(values.traits, trait)}
                            onClick={() => set('traits', addTrait(values.traits, trait))}
                          >
                            {trait}
                          </Button>
                        ))}
                      </Wrap>
                    </Box>
                  )}
                </Stack>

                <Switch.Root
                  checked={values.isPublic}
                  onCheckedChange={(details) => set('isPublic', details.checked)}
                  colorPalette="purple"
                  display="flex"
                  alignItems="flex-start"
                  gap="3"
                >
                  <Switch.HiddenInput />
                  <Switch.Control mt="0.5">
                    <Switch.Thumb />
                  </Switch.Control>
                  <Stack gap="0">
                    <Switch.Label>{t('characters.form.public')}</Switch.Label>
                    <Text fontSize="sm" color="fg.muted">
                      {values.isPublic ? t('characters.form.publicHelp') : t('characters.form.privateHelp')}
                    </Text>
                  </Stack>
                </Switch.Root>
                {values.isPublic && (
                  <Stack gap="2" ps={{ base: '0', sm: '12' }} data-testid="character-rating">
                    <RatingChoice
                      value={values.rating}
                      onChange={(rating) => {
                        set('rating', rating);
                        setRatingError(undefined);
                      }}
                      error={ratingError}
                    />
                    <Text fontSize="sm" color="fg.muted">
                      {t('ratings.characterHelp')}
                    </Text>
                  </Stack>
                )}

                <Collapsible.Root>
                  <Collapsible.Trigger asChild>
                    <Button variant="ghost" size="sm" px="0" className="group">
                      <ChevronRightIcon transition="transform 0.15s" _groupExpanded={{ transform: 'rotate(90deg)' }} />
                      {t('characters.form.advanced')}
                    </Button>
                  </Collapsible.Trigger>
                  <Collapsible.Content>
                    <Stack gap="4" pt="3">
                      <Field.Root>
                        <Field.Label>{t('characters.form.scenario')}</Field.Label>
                        <Textarea
                          value={values.scenario}
                          onChange={(event) => set('scenario', event.target.value)}
                          rows={2}
                          placeholder={t('characters.form.scenarioPlaceholder')}
                        />
                      </Field.Root>
                      <Field.Root>
                        <Field.Label>{t('characters.form.greeting')}</Field.Label>
                        <Textarea
                          value={values.greeting}
                          onChange={(event) => set('greeting', event.target.value)}
                          rows={3}
                          placeholder={t('characters.form.greetingPlaceholder', macros)}
                        />
                        <Field.HelperText>{t('characters.form.greetingHelp', macros)}</Field.HelperText>
                      </Field.Root>
                      <Field.Root>
                        <Field.Label>{t('characters.form.exampleDialogue')}</Field.Label>
                        <Textarea
                          value={values.exampleDialogue}
                          onChange={(event) => set('exampleDialogue', event.target.value)}
                          rows={3}
                          placeholder={t('characters.form.exampleDialoguePlaceholder', macros)}
                        />
                      </Field.Root>
                      <Field.Root>
                        <Field.Label>{t('characters.form.systemPrompt')}</Field.Label>
                        <Textarea
                          value={values.systemPrompt}
                          onChange={(event) => set('systemPrompt', event.target.value)}
                          rows={3}
                          placeholder={t('characters.form.systemPromptPlaceholder')}
                        />
                      </Field.Root>
                    </Stack>
                  </Collapsible.Content>
                </Collapsible.Root>

                {sampling && onSamplingChange && (
                  <Collapsible.Root open={isReplySettingsOpen} onOpenChange={(details) => setReplySettingsOpen(details.open)}>
                    <Collapsible.Trigger asChild>
                      <Button variant="ghost" size="sm" px="0" className="group">
                        <ChevronRightIcon transition="transform 0.15s" _groupExpanded={{ transform: 'rotate(90deg)' }} />
                        {t('chatSettings.character.replySettings')}
                      </Button>
                    </Collapsible.Trigger>
                    <Collapsible.Content>
                      <Box pt="3" data-testid="character-reply-settings">
                        <SamplerFields value={sampling} onChange={onSamplingChange} />
                      </Box>
                    </Collapsible.Content>
                  </Collapsible.Root>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Flex gap="3" justify="flex-end" w="full">
                <Button variant="outline" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" colorPalette="purple" loading={saving}>
                  {mode === 'create' ? t('characters.form.submitCreate') : t('characters.form.submitEdit')}
                </Button>
              </Flex>
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
