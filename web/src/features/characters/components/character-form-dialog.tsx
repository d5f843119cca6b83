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

  const title = mode === 'create' ? 'Create Character' : 'Edit Character';

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
                  <Field.Label>Name</Field.Label>
                  <Input
                    value={values.name}
                    onChange={(event) => set('name', event.target.value)}
                    maxLength={CHARACTER_LIMITS.nameLength}
                    placeholder="e.g. Aria, the wandering bard"
                  />
                </Field.Root>
                <Field.Root>
                  <Field.Label>Description</Field.Label>
                  <Textarea
                    value={values.description}
                    onChange={(event) => set('description', event.target.value)}
                    rows={3}
                    placeholder="Who they are, how they look, what they want."
                  />
                </Field.Root>

                <Stack gap="2">
                  <Field.Root>
                    <Field.Label>Personality traits</Field.Label>
                    <HStack w="full">
                      <Input
                        value={traitInput}
                        onChange={(event) => setTraitInput(event.target.value)}
                        onKeyDown={onTraitKeyDown}
                        maxLength={CHARACTER_LIMITS.traitLength}
                        placeholder="Type a trait and press Enter"
                      />
                      <IconButton aria-label="Add trait" variant="outline" onClick={addTypedTrait}>
                        <PlusIcon />
                      </IconButton>
                    </HStack>
                    <Field.HelperText>Click a trait to remove it.</Field.HelperText>
                  </Field.Root>
                  {values.traits.length > 0 && (
                    <Wrap gap="2" as="ul" listStyleType="none" m="0" p="0" aria-label="Chosen traits" data-testid="chosen-traits">
                      {values.traits.map((trait) => (
                        <li key={trait}>
                          <Button
                            size="xs"
                            colorPalette="purple"
                            variant="subtle"
                            rounded="full"
                            aria-label={`Remove trait ${trait}`}
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
                        Suggested traits
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
                    <Switch.Label>Public</Switch.Label>
                    <Text fontSize="sm" color="fg.muted">
                      {values.isPublic ? 'Everyone can find and chat with this character.' : 'Only you can see this character.'}
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
                      Advanced
                    </Button>
                  </Collapsible.Trigger>
                  <Collapsible.Content>
                    <Stack gap="4" pt="3">
                      <Field.Root>
                        <Field.Label>Scenario</Field.Label>
                        <Textarea
                          value={values.scenario}
                          onChange={(event) => set('scenario', event.target.value)}
                          rows={2}
                          placeholder="Where and when the chat takes place."
                        />
                      </Field.Root>
                      <Field.Root>
                        <Field.Label>Greeting (first message)</Field.Label>
                        <Textarea
                          value={values.greeting}
                          onChange={(event) => set('greeting', event.target.value)}
                          rows={3}
                          placeholder="*waves* Hi, {{user}}! I'm {{char}}."
                        />
                        <Field.HelperText>
                          A new chat opens with it. {'{{char}}'} and {'{{user}}'} are replaced with the names.
                        </Field.HelperText>
                      </Field.Root>
                      <Field.Root>
                        <Field.Label>Example dialogue</Field.Label>
                        <Textarea
                          value={values.exampleDialogue}
                          onChange={(event) => set('exampleDialogue', event.target.value)}
                          rows={3}
                          placeholder={'{{user}}: Hello!\n{{char}}: *smiles* Hello yourself.'}
                        />
                      </Field.Root>
                      <Field.Root>
                        <Field.Label>System prompt</Field.Label>
                        <Textarea
                          value={values.systemPrompt}
                          onChange={(event) => set('systemPrompt', event.target.value)}
                          rows={3}
                          placeholder="Extra instructions for the model."
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
                  Cancel
                </Button>
                <Button type="submit" colorPalette="purple" loading={saving}>
                  {mode === 'create' ? 'Create Character' : 'Save Changes'}
                </Button>
              </Flex>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
