import { AppError, STORY_LIMITS, SavePointLabel, StartStoryInput, StoryAction, StoryTitle } from '@app/schema';
import { z } from 'zod';
import { LIVE_TOPICS } from '../live-hub';
import { type Caller, type LiveServices, type Services, member } from '../operations/caller';
import { RelayWindow, foundId, parseInput } from '../operations/input';

const STORY_NOT_FOUND = 'Story not found';
const PASSAGE_NOT_FOUND = 'Passage not found';

const choiceRange = `choiceIndex must be between 0 and ${STORY_LIMITS.choicesMax - 1}`;
const StoryChoice = z.object({
  choiceIndex: z
    .number({ error: choiceRange })
    .int(choiceRange)
    .min(0, choiceRange)
    .max(STORY_LIMITS.choicesMax - 1, choiceRange),
});
const TakenAction = z.object({ action: StoryAction });
const StoryRename = z.object({ title: StoryTitle });
const SavePoint = z.object({ label: SavePointLabel });

/** What GraphQL's StartStoryInput carries; the contract parses it. */
export interface StartStoryFields {
  premise?: unknown;
  title?: unknown;
  genre?: unknown;
  tone?: unknown;
  language?: unknown;
  characterIds?: unknown[] | null;
}

const isNotFound = (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND';

/** The story and one of its passages, both as ids the contract accepts (anything else names nothing: NOT_FOUND). */
function passageRef(storyId: string, passageId: string) {
  return { storyId: foundId(storyId, STORY_NOT_FOUND), passageId: foundId(passageId, PASSAGE_NOT_FOUND) };
}

const optionalPassage = (passageId: string | null | undefined) => (passageId ? foundId(passageId, PASSAGE_NOT_FOUND) : null);

export const listStories = async (services: Services, caller: Caller, window: RelayWindow) =>
  services.stories.listStories(member(caller).id, parseInput(RelayWindow, { ...window }), caller.meta);

export const getStory = async (services: Services, caller: Caller, id: string) =>
  services.stories.getStory(member(caller).id, foundId(id, STORY_NOT_FOUND), caller.meta);

/** One of the caller's stories, or null: `node(id:)` asks every kind of item, and only one of them has the id. */
export async function findStory(services: Services, caller: Caller, id: string) {
  try {
    return await getStory(services, caller, id);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Counts one of the month's stories and charges the opening (1 token); the opening streams to `storyUpdates`. */
export async function startStory(services: Services, caller: Caller, fields: StartStoryFields) {
  const user = member(caller);
  // GraphQL sends explicit nulls; the contract's defaults (English, no characters) apply to what was left out.
  const input = parseInput(StartStoryInput, {
    premise: fields.premise,
    title: fields.title,
    genre: fields.genre,
    tone: fields.tone,
    language: fields.language ?? undefined,
    characterIds: fields.characterIds?.map((id) => foundId(id, 'Character not found')) ?? undefined,
  });
  return services.stories.startStory(user.id, input, services.access.ratingsFor(user), caller.meta);
}

export async function chooseStoryOption(services: Services, caller: Caller, storyId: string, passageId: string, choiceIndex: number) {
  const user = member(caller);
  const ref = passageRef(storyId, passageId);
  const choice = parseInput(StoryChoice, { choiceIndex }).choiceIndex;
  return services.stories.chooseStoryOption(user.id, ref.storyId, ref.passageId, choice, caller.meta);
}

export async function takeStoryAction(services: Services, caller: Caller, storyId: string, passageId: string, action: unknown) {
  const user = member(caller);
  const ref = passageRef(storyId, passageId);
  return services.stories.takeStoryAction(user.id, ref.storyId, ref.passageId, parseInput(TakenAction, { action }).action, caller.meta);
}

export async function retellPassage(services: Services, caller: Caller, storyId: string, passageId: string) {
  const user = member(caller);
  const ref = passageRef(storyId, passageId);
  return services.stories.retellPassage(user.id, ref.storyId, ref.passageId, caller.meta);
}

/** Passages from the opening to `passageId` (the current one when none is named), in reading order. */
export async function storyPath(services: Services, caller: Caller, storyId: string, passageId?: string | null) {
  const user = member(caller);
  return services.stories.storyPath(user.id, foundId(storyId, STORY_NOT_FOUND), optionalPassage(passageId), caller.meta);
}

export const storyMap = async (services: Services, caller: Caller, storyId: string) =>
  services.stories.storyMap(member(caller).id, foundId(storyId, STORY_NOT_FOUND), caller.meta);

export async function exportStory(services: Services, caller: Caller, storyId: string, passageId?: string | null) {
  const user = member(caller);
  return services.stories.exportStory(user.id, foundId(storyId, STORY_NOT_FOUND), optionalPassage(passageId), caller.meta);
}

export async function goToPassage(services: Services, caller: Caller, storyId: string, passageId: string) {
  const user = member(caller);
  const ref = passageRef(storyId, passageId);
  return services.stories.goToPassage(user.id, ref.storyId, ref.passageId, caller.meta);
}

export async function setSavePoint(services: Services, caller: Caller, storyId: string, passageId: string, label: unknown) {
  const user = member(caller);
  const ref = passageRef(storyId, passageId);
  return services.stories.setSavePoint(user.id, ref.storyId, ref.passageId, parseInput(SavePoint, { label }).label, caller.meta);
}

export async function renameStory(services: Services, caller: Caller, id: string, title: unknown) {
  const user = member(caller);
  const storyId = foundId(id, STORY_NOT_FOUND);
  return services.stories.renameStory(user.id, storyId, parseInput(StoryRename, { title }).title, caller.meta);
}

export async function deleteStory(services: Services, caller: Caller, id: string): Promise<string> {
  await services.stories.deleteStory(member(caller).id, foundId(id, STORY_NOT_FOUND), caller.meta);
  return id;
}

export const stopStory = async (services: Services, caller: Caller, storyId: string) =>
  services.stories.stopStory(member(caller).id, foundId(storyId, STORY_NOT_FOUND), caller.meta);

/** Live updates of one of the member's stories; ownership is checked before listening (a stranger's is NOT_FOUND). */
export async function watchStory(services: LiveServices, caller: Caller, storyId: string) {
  await getStory(services, caller, storyId);
  return services.live.listen(LIVE_TOPICS.story, storyId);
}
