import { Box, Button, Center, Flex, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CharacterCard } from './components/character-card';
import { CharacterFormDialog } from './components/character-form-dialog';
import {
  CreateCharacterDocument,
  DeleteCharacterDocument,
  MyCharactersDocument,
  PublicCharactersDocument,
  SuggestedTraitsDocument,
  UpdateCharacterDocument,
} from './operations';
import { PlusIcon } from '../../components/icons/chat-icons';
import { ConfirmDialog } from '../../components/dialogs';
import { useMutationToast } from '../../hooks/use-mutation-toast';
import { useStartConversation } from '../chat/hooks/use-start-conversation';
import { loadCharacterSamplingForm } from './character-sampling';
import { ImportCardButton } from './components/import-card-button';
import { UsersIcon } from '../../components/icons/icons';
import { ReportDialog } from '../moderation/components/report-dialog';
import { useContentSettings } from '../moderation/hooks/use-content-settings';
import { PageHeader } from '../../components/page-header';
import { EMPTY_SAMPLER_FORM, toSamplerInput, type SamplerForm } from '../chat-settings';
import type { CharacterFieldsFragment } from '../../gql/graphql';
import {
  characterName,
  EMPTY_CHARACTER_FORM,
  toCharacterForm,
  toCreateCharacterInput,
  toUpdateCharacterInput,
  type CharacterFormValues,
} from './character-form-model';
import { translatedErrorMessage } from '../../lib/error-messages';
import { getErrorCode } from '../../lib/graphql-errors';
import { startsBlurred } from '../moderation/content-ratings';
import { TOASTS } from '../../lib/error-toasts';
import { showToast, type ToastInput } from '../../lib/toaster';

/** Spec §9: the Discover grid shows at most 8 public characters. */
export const DISCOVER_LIMIT = 8;

/** Answers that say what is wrong with this character (a name too long, a character gone), in the interface language. */
const SERVER_EXPLAINED_CODES = new Set(['CONFLICT', 'VALIDATION_FAILED', 'NOT_FOUND', 'FORBIDDEN']);

/** For useMutationToast's handleError: the screen's toast with the server's explanation, when it has one. */
function showServerExplanation(failure: ToastInput) {
  return (error: unknown): boolean => {
    const code = getErrorCode(error);
    const message = translatedErrorMessage(error);
    if (!code || !SERVER_EXPLAINED_CODES.has(code) || !message) return false;
    showToast({ ...failure, description: message });
    return true;
  };
}

/** Everything that lists characters, refreshed after a change. */
const CHARACTER_LISTS = [MyCharactersDocument, PublicCharactersDocument];

function GridSkeleton() {
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="4" aria-hidden="true">
      {[0, 1, 2].map((index) => (
        <Skeleton key={index} h="52" rounded="lg" />
      ))}
    </SimpleGrid>
  );
}

function GridEmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Center borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" py="10" px="6">
      <Stack align="center" textAlign="center" gap="3">
        <UsersIcon boxSize="8" color="purple.300" />
        <Text fontWeight="medium">{title}</Text>
        {children}
      </Stack>
    </Center>
  );
}

/** sampling: null until the character's reply settings are read (and then left as they are when saving). */
type Editing = { character: CharacterFieldsFragment; values: CharacterFormValues; sampling: SamplerForm | null } | null;

/** Characters (spec §2): create, edit, import/export and delete your own; discover public ones; chat with any. */
export default function CharactersPage() {
  const { t } = useTranslation();
  const client = useApolloClient();
  const mine = useQuery(MyCharactersDocument, { errorPolicy: 'all' });
  const discover = useQuery(PublicCharactersDocument, { variables: { first: DISCOVER_LIMIT }, errorPolicy: 'all' });
  const { data: traitsData } = useQuery(SuggestedTraitsDocument, { errorPolicy: 'all' });
  const suggestedTraits = traitsData?.suggestedTraits ?? [];
  const { start, startingFor } = useStartConversation();

  const [isCreateOpen, setCreateOpen] = useState(false);
  const [draft, setDraft] = useState<CharacterFormValues>(EMPTY_CHARACTER_FORM);
  const [draftSampling, setDraftSampling] = useState<SamplerForm>(EMPTY_SAMPLER_FORM);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CharacterFieldsFragment | null>(null);
  const mutation = useMutationToast();
  const busy = mutation.pending;
  const { preferences } = useContentSettings();
  // Characters the member chose to see with Show, for this visit.
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(() => new Set());
  const [reporting, setReporting] = useState<string | null>(null);

  const myCharacters = mine.data?.characters.nodes ?? [];
  const publicCharacters = (discover.data?.publicCharacters.nodes ?? []).slice(0, DISCOVER_LIMIT);

  const refreshLists = () => client.refetchQueries({ include: CHARACTER_LISTS });

  const create = async () => {
    if (!characterName(draft)) {
      showToast(TOASTS.nameRequired);
      return;
    }
    const failure = TOASTS.characterCreateFailed;
    const data = await mutation.run({
      mutation: CreateCharacterDocument,
      variables: { input: { ...toCreateCharacterInput(draft), sampling: toSamplerInput(draftSampling) } },
      success: TOASTS.characterCreated,
      failure,
      handleError: showServerExplanation(failure),
    });
    if (!data) return;
    setCreateOpen(false);
    setDraft(EMPTY_CHARACTER_FORM);
    setDraftSampling(EMPTY_SAMPLER_FORM);
    void refreshLists();
  };

  const update = async () => {
    if (!editing) return;
    if (!characterName(editing.values)) {
      showToast(TOASTS.nameRequired);
      return;
    }
    const failure = TOASTS.characterUpdateFailed;
    const data = await mutation.run({
      mutation: UpdateCharacterDocument,
      variables: {
        id: editing.character.id,
        // {} clears the character's reply settings; left out, they stay as they are.
        input: { ...toUpdateCharacterInput(editing.values), ...(editing.sampling ? { sampling: toSamplerInput(editing.sampling) } : {}) },
      },
      success: TOASTS.characterUpdated,
      failure,
      handleError: showServerExplanation(failure),
    });
    if (!data) return;
    setEditing(null);
    void refreshLists();
  };

  const remove = async () => {
    if (!deleting) return;
    const { id } = deleting;
    const failure = TOASTS.characterDeleteFailed;
    const data = await mutation.run({
      mutation: DeleteCharacterDocument,
      variables: { id },
      update(cache) {
        cache.evict({ id: cache.identify({ __typename: 'Character', id }) });
        cache.gc();
      },
      success: TOASTS.characterDeleted,
      failure,
      handleError: showServerExplanation(failure),
    });
    if (!data) return;
    setDeleting(null);
    void refreshLists();
  };

  const edit = async (character: CharacterFieldsFragment) => {
    setEditing({ character, values: toCharacterForm(character), sampling: null });
    const sampling = await loadCharacterSamplingForm(client, character.id);
    setEditing((current) => (current?.character.id === character.id ? { ...current, sampling } : current));
  };

  const chatWith = (character: CharacterFieldsFragment) => void start({ characterId: character.id, title: character.name });

  return (
    <Stack gap="10">
      <Flex gap="4" align={{ base: 'stretch', md: 'flex-start' }} direction={{ base: 'column', md: 'row' }} justify="space-between">
        <Box flex="1">
          <PageHeader title={t('characters.title')} description={t('characters.description')} />
        </Box>
        <Flex gap="3" wrap="wrap">
          <ImportCardButton onImported={() => void refreshLists()} />
          <Button colorPalette="purple" onClick={() => setCreateOpen(true)}>
            <PlusIcon />
            {t('characters.create')}
          </Button>
        </Flex>
      </Flex>

      <Box as="section" aria-labelledby="my-characters-heading">
        <Heading as="h2" id="my-characters-heading" size="lg" mb="4">
          {t('characters.mine.heading')}
        </Heading>
        {mine.loading && !mine.data ? (
          <GridSkeleton />
        ) : myCharacters.length === 0 ? (
          <GridEmptyState title={mine.error ? t('characters.mine.loadFailed') : t('characters.mine.empty')}>
            {mine.error ? (
              <Button size="sm" variant="outline" onClick={() => void mine.refetch()}>
                {t('characters.tryAgain')}
              </Button>
            ) : (
              <Button size="sm" colorPalette="purple" onClick={() => setCreateOpen(true)}>
                {t('characters.mine.createFirst')}
              </Button>
            )}
          </GridEmptyState>
        ) : (
          <SimpleGrid as="ul" columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="4" listStyleType="none" m="0" p="0">
            {myCharacters.map((character) => (
              <li key={character.id}>
                <CharacterCard
                  character={character}
                  variant="mine"
                  starting={startingFor === character.id}
                  onChat={() => chatWith(character)}
                  onEdit={() => void edit(character)}
                  onDelete={() => setDeleting(character)}
                />
              </li>
            ))}
          </SimpleGrid>
        )}
      </Box>

      <Box as="section" aria-labelledby="discover-heading">
        <Heading as="h2" id="discover-heading" size="lg" mb="1">
          {t('characters.discover.heading')}
        </Heading>
        <Text color="fg.muted" mb="4">
          {t('characters.discover.description')}
        </Text>
        {discover.loading && !discover.data ? (
          <GridSkeleton />
        ) : publicCharacters.length === 0 ? (
          <GridEmptyState title={t('characters.discover.empty')} />
        ) : (
          <SimpleGrid as="ul" columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="4" listStyleType="none" m="0" p="0">
            {publicCharacters.map((character) => (
              <li key={character.id}>
                <CharacterCard
                  character={character}
                  variant="discover"
                  starting={startingFor === character.id}
                  blurred={!revealed.has(character.id) && startsBlurred(character, preferences)}
                  onChat={() => chatWith(character)}
                  onReveal={() => setRevealed((current) => new Set(current).add(character.id))}
                  onReport={character.isMine ? undefined : () => setReporting(character.id)}
                />
              </li>
            ))}
          </SimpleGrid>
        )}
      </Box>

      <CharacterFormDialog
        mode="create"
        open={isCreateOpen}
        values={draft}
        onChange={setDraft}
        suggestedTraits={suggestedTraits}
        saving={busy && isCreateOpen}
        onSubmit={() => void create()}
        onClose={() => setCreateOpen(false)}
        sampling={draftSampling}
        onSamplingChange={setDraftSampling}
      />
      {editing && (
        <CharacterFormDialog
          key={editing.character.id}
          mode="edit"
          open
          values={editing.values}
          onChange={(values) => setEditing((current) => (current ? { ...current, values } : current))}
          suggestedTraits={suggestedTraits}
          saving={busy}
          onSubmit={() => void update()}
          onClose={() => setEditing(null)}
          sampling={editing.sampling ?? undefined}
          onSamplingChange={(sampling) => setEditing((current) => (current ? { ...current, sampling } : current))}
        />
      )}
      <ReportDialog target={reporting ? { kind: 'CHARACTER', id: reporting } : null} onClose={() => setReporting(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('characters.deleteDialog.title', { name: deleting?.name ?? '' })}
        description={t('characters.deleteDialog.description')}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
