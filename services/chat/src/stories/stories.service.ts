import { randomUUID } from 'node:crypto';
import { type Transaction, logger } from '@app/kit';
import type { ContentPolicy } from '@app/policy';
import {
  AppError,
  type ContentRating,
  type PageRequest,
  STORY_LIMITS,
  type StartStoryInput,
  type Story,
  type StoryActionKind,
  type StoryMapNode,
  type StoryPage,
  type StoryPassage,
  storyEvents,
} from '@app/schema';
import type { z } from 'zod';
import type { CharacterRow } from '../characters/characters.repository';
import type { CharactersService } from '../characters/characters.service';
import type { GenerationRef, Generations } from '../generation/generation';
import { toPage } from '../keyset-page';
import type { ChatProvider } from '../providers/chat-provider';
import {
  type PassageRow,
  type StoriesData,
  type StoriesStore,
  type StoryCharacter,
  type StoryRow,
  toMapNode,
  toPassage,
  toStory,
} from './stories.repository';
import type { StoryCharges } from './story-ledger';
import type { StoryLivePort } from './story-live';
import { storyMarkdown } from './story-markdown';
import { type PathPassage, buildStoryPrompt } from './story-prompt';

/** What the stories need to know of the provider: the model recorded on passages, and the prompt budget. */
export type StoryProviderInfo = Pick<ChatProvider, 'model' | 'isDemo' | 'contextTokens' | 'maxReplyTokens'>;

export interface StoriesConfig {
  /** A streaming passage whose lease ran out is presumed orphaned (the chat reply lease). */
  leaseMs: number;
  /** Passages a member may start per minute, across stories (the chat replies' pace). */
  sendsPerMinute: number;
}

export type VisibleCharacters = Pick<CharactersService, 'findVisibleRow'>;
export type StoryPolicy = Pick<ContentPolicy, 'assertAllowed'>;
export type StartStory = z.output<typeof StartStoryInput>;

/** How many stories a page holds when the client names no size. */
const DEFAULT_PAGE_SIZE = 20;
/** A title made from the premise: its first words, short enough for a list row. */
const TITLE_FROM_PREMISE_LENGTH = 60;

const notFound = () => new AppError('NOT_FOUND', 'Story not found');
const passageNotFound = () => new AppError('NOT_FOUND', 'Passage not found');
const busy = () => new AppError('CONFLICT', 'Wait for the current passage to finish, or stop it.');
const removed = () => new AppError('CONFLICT', 'A moderator removed this passage. Go back and take another branch.');
const passageKey = (passageId: string) => `story-passage:${passageId}`;

/** The premise's first words, at most 60 characters, cut at a word. */
export function titleFromPremise(premise: string): string {
  const text = premise.replace(/\s+/g, ' ').trim();
  if (text.length <= TITLE_FROM_PREMISE_LENGTH) return text.replace(/[.,;:]+$/, '');
  const cut = text.slice(0, TITLE_FROM_PREMISE_LENGTH + 1);
  const lastSpace = cut.lastIndexOf(' ');
  const words = lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, TITLE_FROM_PREMISE_LENGTH);
  return words.replace(/[\s.,;:!?-]+$/, '');
}

function toStoryCharacter(row: CharacterRow): StoryCharacter {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    personality: row.personality_text ?? row.traits.join(', '),
    scenario: row.scenario,
  };
}

/** A passage on the way to a new one, as the narrator rereads it: a removed or unwritten passage's text never is. */
function toPathPassage(row: PassageRow): PathPassage {
  return {
    actionKind: row.action_kind,
    action: row.action,
    content: row.status === 'failed' ? '' : row.content,
    isRemoved: row.moderation_state === 'removed',
  };
}

/** Where a new passage goes in the tree and how the reader reached it. */
interface NextPassage {
  parentId: string | null;
  depth: number;
  actionKind: StoryActionKind;
  action: string | null;
  /** The passage opens a story that has none written yet: it counts one use of the free plan's `story` quota. */
  countsAsStory: boolean;
}

/** Interactive stories: a tree of passages the engine writes, one at a time per story, 1 token each. */
export class StoriesService {
  constructor(
    private readonly store: StoriesStore,
    private readonly ledger: StoryCharges,
    private readonly characters: VisibleCharacters,
    private readonly engine: Generations,
    private readonly provider: StoryProviderInfo,
    private readonly config: StoriesConfig,
    private readonly policy: StoryPolicy,
    private readonly live: StoryLivePort,
  ) {}

  async list(userId: string, request: PageRequest): Promise<StoryPage> {
    const [rows, totalCount] = await this.store.run(
      async ({ stories }) => [await stories.listByOwner(userId, request, DEFAULT_PAGE_SIZE), await stories.countByOwner(userId)] as const,
    );
    return { ...toPage(rows, request, toStory), totalCount };
  }

  async get(userId: string, storyId: string): Promise<Story> {
    return toStory(await this.store.run(({ stories }) => this.owned(stories, userId, storyId)));
  }

  /** Counts one of the month's stories, charges the opening and starts writing it; the opening streams live. */
  async start(userId: string, input: StartStory, ratings: readonly ContentRating[]): Promise<{ story: Story; passage: StoryPassage }> {
    const title = input.title || titleFromPremise(input.premise);
    await this.policy.assertAllowed([input.premise, title], { path: 'story', userId });
    const characters = await this.featured(userId, input.characterIds, ratings);
    await this.store.run(async ({ stories }) => {
      await this.assertRoomForStory(stories, userId);
      await this.assertPace(stories, userId);
    });
    const storyId = randomUUID();
    const passageId = randomUUID();
    const debitKey = passageKey(passageId);
    await this.ledger.charge(userId, debitKey, { countsAsStory: true });
    let created: { story: StoryRow; passage: PassageRow };
    try {
      created = await this.store.transaction(async ({ stories }, tx) => {
        await this.ledger.settle(debitKey);
        await stories.lockStartsOf(userId, tx);
        await this.assertRoomForStory(stories, userId);
        const { genre = null, tone = null, language, premise } = input;
        await stories.insert({ id: storyId, ownerId: userId, title, premise, genre, tone, language, characters });
        const passage = await this.insertPassage(stories, userId, storyId, passageId, debitKey, {
          parentId: null,
          depth: 0,
          actionKind: 'opening',
          action: null,
          countsAsStory: true,
        });
        const story = await stories.recordNewPassage(storyId, passageId);
        const characterIds = characters.map((character) => character.id);
        await tx.emit(storyEvents.storyStarted, { storyId, genre, tone, language, characterIds }, userId);
        await this.recordStart(tx, userId, passage);
        return { story, passage };
      });
    } catch (error) {
      await this.ledger.abandon(userId, debitKey);
      throw error;
    }
    await this.startPassage(created.story, created.passage);
    return { story: toStory(created.story), passage: toPassage(created.passage) };
  }

  /** Continues from a passage with one of the choices it offers. */
  async choose(userId: string, storyId: string, passageId: string, choiceIndex: number): Promise<StoryPassage> {
    const parent = await this.store.run(({ stories }) => this.ownedPassage(stories, userId, storyId, passageId));
    if (parent.status === 'streaming') throw busy();
    if (parent.moderation_state === 'removed') throw removed();
    // A stopped passage offers the choices it got to write; a failed one offers none.
    const choices = parent.status === 'failed' ? [] : parent.choices;
    const choice = choices[choiceIndex];
    if (choice === undefined) {
      throw new AppError(
        'VALIDATION_FAILED',
        choices.length ? `This passage offers ${choices.length} choices.` : 'This passage offers no choices. Write what you do instead.',
      );
    }
    return this.write(userId, storyId, {
      parentId: parent.id,
      depth: parent.depth + 1,
      actionKind: 'choice',
      action: choice,
      countsAsStory: false,
    });
  }

  /** Continues from a passage with the member's own action. */
  async act(userId: string, storyId: string, passageId: string, action: string): Promise<StoryPassage> {
    await this.policy.assertAllowed([action], { path: 'story', userId });
    const parent = await this.store.run(({ stories }) => this.ownedPassage(stories, userId, storyId, passageId));
    if (parent.status === 'streaming') throw busy();
    if (parent.moderation_state === 'removed') throw removed();
    if (parent.status === 'failed')
      throw new AppError('CONFLICT', 'This passage was not written. Retell it, or go back to an earlier one.');
    return this.write(userId, storyId, {
      parentId: parent.id,
      depth: parent.depth + 1,
      actionKind: 'action',
      action,
      countsAsStory: false,
    });
  }

  /** Writes a passage again from the same action, as a new branch beside it; the old one stays. */
  async retell(userId: string, storyId: string, passageId: string): Promise<StoryPassage> {
    const { passage, counted } = await this.store.run(async ({ stories }) => ({
      passage: await this.ownedPassage(stories, userId, storyId, passageId),
      counted: await stories.hasPaidPassage(storyId),
    }));
    return this.write(userId, storyId, {
      parentId: passage.parent_id,
      depth: passage.depth,
      actionKind: passage.action_kind,
      action: passage.action,
      // A story counts once: its allowance use goes back with a refunded opening, and is taken by the next one written.
      countsAsStory: passage.action_kind === 'opening' && !counted,
    });
  }

  /** Goes back (or forward) to any passage of the story: it becomes the current one. */
  async goTo(userId: string, storyId: string, passageId: string): Promise<Story> {
    const row = await this.store.run(async ({ stories }) => {
      await this.ownedPassage(stories, userId, storyId, passageId);
      return stories.moveTo(storyId, userId, passageId);
    });
    if (!row) throw notFound();
    const story = toStory(row);
    await this.live.publish({ type: 'story', storyId, story });
    return story;
  }

  /** Names a passage as a save point; an empty name removes it. */
  async setSavePoint(userId: string, storyId: string, passageId: string, label: string): Promise<StoryPassage> {
    const row = await this.store.run(({ stories }) => stories.setSavePoint(passageId, storyId, userId, label.trim() || null));
    if (!row) throw passageNotFound();
    const passage = toPassage(row);
    await this.live.publish({ type: 'passage', storyId, passage });
    return passage;
  }

  /** An empty title names the story by its premise again. */
  async rename(userId: string, storyId: string, rawTitle: string): Promise<Story> {
    const current = await this.store.run(({ stories }) => this.owned(stories, userId, storyId));
    const title = rawTitle.trim() || titleFromPremise(current.premise);
    await this.policy.assertAllowed([title], { path: 'story', userId });
    const row = await this.store.run(({ stories }) => stories.rename(storyId, userId, title));
    if (!row) throw notFound();
    const story = toStory(row);
    await this.live.publish({ type: 'story', storyId, story });
    return story;
  }

  /** Deletes the story and every passage; a passage being written is stopped first. */
  async delete(userId: string, storyId: string): Promise<void> {
    const streaming = await this.store.run(async ({ stories }) => {
      await this.owned(stories, userId, storyId);
      return stories.streamingIn(storyId);
    });
    if (streaming) await this.engine.requestStop(streaming.id);
    await this.store.transaction(async ({ stories }, tx) => {
      if (!(await stories.delete(storyId, userId))) throw notFound();
      await tx.emit(storyEvents.storyDeleted, { storyId }, userId);
    });
    await this.live.publish({ type: 'deleted', storyId });
  }

  /** Stops the passage being written; its text so far is kept. */
  async stop(userId: string, storyId: string): Promise<boolean> {
    const streaming = await this.store.run(async ({ stories }) => {
      await this.owned(stories, userId, storyId);
      return stories.streamingIn(storyId);
    });
    if (!streaming) return false;
    await this.engine.requestStop(streaming.id);
    return true;
  }

  /** The passages from the opening to `passageId` (the current one when null), in reading order. */
  async path(userId: string, storyId: string, passageId: string | null): Promise<StoryPassage[]> {
    const rows = await this.store.run(async ({ stories }) => this.branch(stories, userId, storyId, passageId));
    return rows.passages.map(toPassage);
  }

  /** Every passage of the story, as the branch map shows it, oldest first. */
  async map(userId: string, storyId: string): Promise<StoryMapNode[]> {
    const rows = await this.store.run(async ({ stories }) => {
      await this.owned(stories, userId, storyId);
      return stories.map(storyId, userId);
    });
    return rows.map(toMapNode);
  }

  /** The branch that ends at `passageId` (the current one when null) as a Markdown document. */
  async export(userId: string, storyId: string, passageId: string | null): Promise<{ fileName: string; markdown: string }> {
    const { story, passages } = await this.store.run(({ stories }) => this.branch(stories, userId, storyId, passageId));
    return storyMarkdown(toStory(story), passages.map(toPassage));
  }

  private async branch(
    stories: StoriesData,
    userId: string,
    storyId: string,
    passageId: string | null,
  ): Promise<{ story: StoryRow; passages: PassageRow[] }> {
    const story = await this.owned(stories, userId, storyId);
    const end = passageId ?? story.current_passage_id;
    if (!end) return { story, passages: [] };
    const passages = await stories.path(end, storyId, userId);
    if (passages.length === 0) throw passageNotFound();
    return { story, passages };
  }

  /** Charges a new passage, records it (the one streaming passage of the story, now its current one) and starts it. */
  private async write(userId: string, storyId: string, next: NextPassage): Promise<StoryPassage> {
    await this.store.run(async ({ stories }) => {
      const story = await this.owned(stories, userId, storyId);
      await this.assertPace(stories, userId);
      if (await stories.streamingIn(storyId)) throw busy();
      this.assertRoomForPassage(story);
    });
    const passageId = randomUUID();
    const debitKey = passageKey(passageId);
    await this.ledger.charge(userId, debitKey, { countsAsStory: next.countsAsStory });
    let written: { story: StoryRow; passage: PassageRow };
    try {
      written = await this.store.transaction(async ({ stories }, tx) => {
        await this.ledger.settle(debitKey);
        const locked = await this.owned(stories, userId, storyId, tx);
        if (await stories.streamingIn(storyId)) throw busy();
        this.assertRoomForPassage(locked);
        const passage = await this.insertPassage(stories, userId, storyId, passageId, debitKey, next);
        const story = await stories.recordNewPassage(storyId, passageId);
        await this.recordStart(tx, userId, passage);
        return { story, passage };
      });
    } catch (error) {
      await this.ledger.abandon(userId, debitKey);
      throw error;
    }
    const passage = toPassage(written.passage);
    await this.live.publish({ type: 'story', storyId, story: toStory(written.story) });
    await this.live.publish({ type: 'passage', storyId, passage });
    await this.startPassage(written.story, written.passage);
    return passage;
  }

  private insertPassage(
    stories: StoriesData,
    userId: string,
    storyId: string,
    passageId: string,
    debitKey: string,
    next: NextPassage,
  ): Promise<PassageRow> {
    return stories.insertPassage({
      id: passageId,
      storyId,
      ownerId: userId,
      parentId: next.parentId,
      depth: next.depth,
      actionKind: next.actionKind,
      action: next.action,
      model: this.provider.model,
      debitKey,
      leaseMs: this.config.leaseMs,
    });
  }

  private recordStart(tx: Transaction, userId: string, passage: PassageRow): Promise<unknown> {
    return tx.emit(
      storyEvents.passageStarted,
      {
        storyId: passage.story_id,
        passageId: passage.id,
        userId,
        parentId: passage.parent_id,
        actionKind: passage.action_kind,
        model: this.provider.model,
        isDemo: this.provider.isDemo,
      },
      userId,
    );
  }

  /** Builds the narrator's prompt from the story and the branch above the passage, then hands it to the engine. */
  private async startPassage(story: StoryRow, passage: PassageRow): Promise<void> {
    const ref: GenerationRef = {
      kind: 'story_passage',
      subjectId: story.id,
      turnId: passage.id,
      userId: story.owner_id,
      variant: 0,
      debitKey: passage.debit_key ?? passageKey(passage.id),
    };
    try {
      const parentId = passage.parent_id;
      const path = parentId ? await this.store.run(({ stories }) => stories.path(parentId, story.id, story.owner_id)) : [];
      const prompt = buildStoryPrompt({
        premise: story.premise,
        genre: story.genre,
        tone: story.tone,
        language: story.language,
        characters: story.characters,
        path: path.map(toPathPassage),
        next: { actionKind: passage.action_kind, action: passage.action },
        contextTokens: this.provider.contextTokens,
        maxReplyTokens: this.provider.maxReplyTokens,
      });
      this.engine.begin({ ...ref, prompt, sampling: null, model: null, summarize: null });
    } catch (error) {
      logger.error({ err: error, passageId: passage.id }, 'could not start the passage');
      await this.engine.abandon(ref, 'INTERNAL');
    }
  }

  /** The member's own or public characters the story features; any other id is NOT_FOUND. */
  private async featured(userId: string, ids: readonly string[], ratings: readonly ContentRating[]): Promise<StoryCharacter[]> {
    const featured: StoryCharacter[] = [];
    for (const id of new Set(ids)) {
      const row = await this.characters.findVisibleRow(userId, id, ratings);
      if (!row) throw new AppError('NOT_FOUND', 'Character not found');
      featured.push(toStoryCharacter(row));
    }
    return featured;
  }

  private async assertRoomForStory(stories: StoriesData, userId: string): Promise<void> {
    const total = await stories.countByOwner(userId);
    if (total >= STORY_LIMITS.storiesPerMember) {
      throw new AppError('QUOTA_EXCEEDED', `You have ${total} stories, the most one account can keep. Delete one to start a new one.`);
    }
  }

  private assertRoomForPassage(story: StoryRow): void {
    if (story.passage_count >= STORY_LIMITS.passagesPerStory) {
      throw new AppError(
        'QUOTA_EXCEEDED',
        `This story has ${story.passage_count} passages, the most one story can keep. Start a new story to play on.`,
      );
    }
  }

  /** A per-member pace limit, shared by every chat instance because it counts rows. */
  private async assertPace(stories: StoriesData, userId: string): Promise<void> {
    if ((await stories.passagesInLastMinute(userId)) >= this.config.sendsPerMinute) {
      throw new AppError('RATE_LIMITED', 'You are writing passages too quickly. Please wait a moment.', { retryAfterSeconds: 60 });
    }
  }

  private async owned(stories: StoriesData, userId: string, storyId: string, lockIn?: Transaction): Promise<StoryRow> {
    const row = await stories.find(storyId, userId, lockIn);
    if (!row) throw notFound();
    return row;
  }

  private async ownedPassage(stories: StoriesData, userId: string, storyId: string, passageId: string): Promise<PassageRow> {
    const row = await stories.findPassage(passageId, storyId, userId);
    if (!row) throw passageNotFound();
    return row;
  }
}
