import {
  Avatar,
  Box,
  Button,
  CloseButton,
  Dialog,
  Field,
  Heading,
  Input,
  NativeSelect,
  Portal,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Wrap,
} from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MyCharactersDocument, PublicCharactersDocument } from '../../characters/operations';
import { FULL_ON_PHONES_CONTENT } from '../../../components/responsive-dialog';
import type { StoryGenre, StoryTone } from '../../../gql/graphql';
import { chatErrorHandler } from '../../chat/chat-errors';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import type { ToastInput } from '../../../lib/toaster';
import { MyQuotasDocument } from '../../dashboard/quotas';
import { StartStoryDocument, StoriesDocument } from '../operations';
import { STORY_GENRES, STORY_INPUT_LIMITS, STORY_STARTERS, STORY_TONES, storyLanguageFor, type StoryStarterId } from '../story-model';

interface PickableCharacter {
  id: string;
  name: string;
  avatar?: string | null;
}

function CharacterChip({
  character,
  selected,
  disabled,
  onToggle,
}: {
  character: PickableCharacter;
  selected: boolean;
  disabled: boolean;
  onToggle: () => void;
}) {
  return (
    <Button
      size="sm"
      variant={selected ? 'solid' : 'outline'}
      colorPalette={selected ? 'purple' : 'gray'}
      aria-pressed={selected}
      disabled={disabled && !selected}
      onClick={onToggle}
      maxW="full"
      data-testid="story-character-option"
    >
      <Avatar.Root size="2xs" colorPalette="purple">
        <Avatar.Fallback>{Array.from(character.name.trim())[0]?.toUpperCase() ?? '?'}</Avatar.Fallback>
        {character.avatar && <Avatar.Image src={character.avatar} alt="" />}
      </Avatar.Root>
      <Box as="span" truncate>
        {character.name}
      </Box>
    </Button>
  );
}

/** Up to three of the member's own and public characters, as toggle buttons. */
function CharacterPicker({ selected, onChange }: { selected: readonly string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation();
  const mine = useQuery(MyCharactersDocument, { errorPolicy: 'all' });
  const publicOnes = useQuery(PublicCharactersDocument, { variables: { first: 40 }, errorPolicy: 'all' });
  const own: PickableCharacter[] = mine.data?.characters.nodes ?? [];
  const others: PickableCharacter[] = (publicOnes.data?.publicCharacters.nodes ?? []).filter((character) => !character.isMine);
  const full = selected.length >= STORY_INPUT_LIMITS.charactersMax;
  const toggle = (id: string) => onChange(selected.includes(id) ? selected.filter((other) => other !== id) : [...selected, id]);

  const group = (label: string, characters: PickableCharacter[]) =>
    characters.length > 0 && (
      <Stack gap="2">
        <Text fontSize="sm" color="fg.muted">
          {label}
        </Text>
        <Wrap gap="2">
          {characters.map((character) => (
            <CharacterChip
              key={character.id}
              character={character}
              selected={selected.includes(character.id)}
              disabled={full}
              onToggle={() => toggle(character.id)}
            />
          ))}
        </Wrap>
      </Stack>
    );

  return (
    <Stack as="fieldset" gap="3" minW="0">
      <Text as="legend" fontWeight="medium" fontSize="sm" mb="1">
        {t('stories.new.charactersLabel')}{' '}
        <Text as="span" color="fg.muted" fontWeight="normal">
          ({t('common.optional')})
        </Text>
      </Text>
      <Text fontSize="sm" color="fg.muted">
        {t('stories.new.charactersHint', { max: STORY_INPUT_LIMITS.charactersMax })}
      </Text>
      {own.length === 0 && others.length === 0 && !mine.loading && !publicOnes.loading ? (
        <Text fontSize="sm" color="fg.muted">
          {t('stories.new.noCharacters')}
        </Text>
      ) : (
        <>
          {group(t('stories.new.charactersMine'), own)}
          {group(t('stories.new.charactersPublic'), others)}
        </>
      )}
    </Stack>
  );
}

function ChoiceSelect<T extends string>({
  label,
  emptyLabel,
  value,
  values,
  labelOf,
  onChange,
}: {
  label: string;
  emptyLabel: string;
  value: T | '';
  values: readonly T[];
  labelOf: (value: T) => string;
  onChange: (value: T | '') => void;
}) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field value={value} onChange={(event) => onChange(event.target.value as T | '')}>
          <option value="">{emptyLabel}</option>
          {values.map((option) => (
            <option key={option} value={option}>
              {labelOf(option)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/** The form itself, mounted while the dialog is open so each opening starts blank. */
function NewStoryForm({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { run, pending: starting } = useMutationToast();
  const navigate = useNavigate();
  const [premise, setPremise] = useState('');
  const [starter, setStarter] = useState<StoryStarterId | null>(null);
  const [title, setTitle] = useState('');
  const [genre, setGenre] = useState<StoryGenre | ''>('');
  const [tone, setTone] = useState<StoryTone | ''>('');
  const [characterIds, setCharacterIds] = useState<string[]>([]);
  const [premiseError, setPremiseError] = useState(false);

  const pickStarter = (id: StoryStarterId) => {
    const chosen = STORY_STARTERS.find((item) => item.id === id)!;
    setStarter(id);
    setPremise(t(`stories.starters.${id}.premise`));
    setTitle(t(`stories.starters.${id}.title`));
    setGenre(chosen.genre);
    setTone(chosen.tone);
    setPremiseError(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!premise.trim()) {
      setPremiseError(true);
      return;
    }
    const failure: ToastInput = { title: t('stories.new.failed'), variant: 'destructive' };
    const data = await run({
      mutation: StartStoryDocument,
      variables: {
        input: {
          premise: premise.trim(),
          title: title.trim() || null,
          genre: genre || null,
          tone: tone || null,
          language: storyLanguageFor(i18n.resolvedLanguage ?? i18n.language),
          characterIds,
        },
      },
      refetchQueries: [StoriesDocument, MyQuotasDocument],
      failure,
      handleError: chatErrorHandler(failure),
    });
    if (!data) return;
    onClose();
    void navigate(`/stories/${data.startStory.story.id}`);
  };

  return (
    <Dialog.Content as="form" onSubmit={(event) => void submit(event)} {...FULL_ON_PHONES_CONTENT} data-testid="new-story-dialog">
      <Dialog.Header>
        <Dialog.Title>{t('stories.new.title')}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="6">
          <Field.Root invalid={premiseError} required>
            <Field.Label>{t('stories.new.premiseLabel')}</Field.Label>
            <Textarea
              value={premise}
              onChange={(event) => {
                setPremise(event.target.value);
                setStarter(null);
                if (event.target.value.trim()) setPremiseError(false);
              }}
              maxLength={STORY_INPUT_LIMITS.premiseLength}
              rows={4}
              placeholder={t('stories.new.premisePlaceholder')}
              autoFocus
            />
            <Field.HelperText alignSelf="flex-end" aria-live="off">
              {t('stories.new.length', { length: premise.length, max: STORY_INPUT_LIMITS.premiseLength })}
            </Field.HelperText>
            <Field.ErrorText>{t('stories.new.premiseRequired')}</Field.ErrorText>
          </Field.Root>

          <Stack as="section" aria-labelledby="story-starters-heading" gap="3">
            <Heading as="h3" id="story-starters-heading" size="sm">
              {t('stories.new.startersHeading')}
            </Heading>
            <SimpleGrid as="ul" columns={{ base: 1, sm: 2 }} gap="2" listStyleType="none" m="0" p="0">
              {STORY_STARTERS.map(({ id, genre: starterGenre }) => (
                <li key={id}>
                  <Button
                    variant="outline"
                    colorPalette={starter === id ? 'purple' : 'gray'}
                    borderColor={starter === id ? 'purple.500' : undefined}
                    aria-pressed={starter === id}
                    onClick={() => pickStarter(id)}
                    h="full"
                    w="full"
                    py="3"
                    px="3"
                    whiteSpace="normal"
                    textAlign="start"
                    justifyContent="flex-start"
                    alignItems="flex-start"
                    data-testid="story-starter"
                  >
                    <Stack gap="1" minW="0">
                      <Text fontWeight="semibold">{t(`stories.starters.${id}.title`)}</Text>
                      <Text fontSize="xs" color="fg.muted" fontWeight="normal">
                        {t(`stories.genres.${starterGenre}`)}
                      </Text>
                      <Text fontSize="sm" color="fg.muted" fontWeight="normal" lineClamp={2}>
                        {t(`stories.starters.${id}.premise`)}
                      </Text>
                    </Stack>
                  </Button>
                </li>
              ))}
            </SimpleGrid>
          </Stack>

          <Field.Root>
            <Field.Label>
              {t('stories.new.titleLabel')}{' '}
              <Text as="span" color="fg.muted" fontWeight="normal">
                ({t('common.optional')})
              </Text>
            </Field.Label>
            <Input
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              maxLength={STORY_INPUT_LIMITS.titleLength}
              placeholder={t('stories.new.titlePlaceholder')}
            />
          </Field.Root>

          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <ChoiceSelect
              label={t('stories.new.genreLabel')}
              emptyLabel={t('stories.new.anyGenre')}
              value={genre}
              values={STORY_GENRES}
              labelOf={(value) => t(`stories.genres.${value}`)}
              onChange={setGenre}
            />
            <ChoiceSelect
              label={t('stories.new.toneLabel')}
              emptyLabel={t('stories.new.anyTone')}
              value={tone}
              values={STORY_TONES}
              labelOf={(value) => t(`stories.tones.${value}`)}
              onChange={setTone}
            />
          </SimpleGrid>

          <CharacterPicker selected={characterIds} onChange={setCharacterIds} />

          <Text fontSize="sm" color="fg.muted">
            {t('stories.new.cost')}
          </Text>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose}>
          {t('stories.new.cancel')}
        </Button>
        <Button type="submit" colorPalette="purple" loading={starting}>
          {t('stories.new.start')}
        </Button>
      </Dialog.Footer>
      <Dialog.CloseTrigger asChild>
        <CloseButton size="sm" aria-label={t('common.close')} />
      </Dialog.CloseTrigger>
    </Dialog.Content>
  );
}

/** Starts a story: a premise (typed or from a starter), optional title, genre, tone and characters. */
export function NewStoryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      size={{ base: 'full', md: 'lg' }}
      placement="center"
      scrollBehavior="inside"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <NewStoryForm onClose={onClose} />
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
