import { z } from 'zod';
import { defineEvent, defineRpc } from './contract';
import { MessageStatus } from './chat';
import { ModerationState, ViewerRatings } from './moderation';
import { pageOf, paged } from './paging';

/** Limits that keep story prompts, storage and the branch map bounded (SPEC names none; these are ours). */
export const STORY_LIMITS = {
  titleLength: 120,
  premiseLength: 2000,
  actionLength: 1000,
  /** A passage offers this many choices: fewer and the member writes their own action, more are cut. */
  choicesMin: 2,
  choicesMax: 4,
  choiceLength: 200,
  charactersMax: 3,
  savePointLength: 60,
  pageSizeMax: 100,
  /** Stories one member keeps; past it, one must be deleted before another starts. */
  storiesPerMember: 500,
  /** Passages one story keeps, across all its branches; the map shows them all. */
  passagesPerStory: 1000,
} as const;

/** The genres a story can be started in (the Stories screen names them in the member's language). */
export const STORY_GENRES = ['fantasy', 'science_fiction', 'mystery', 'romance', 'horror', 'adventure', 'comedy', 'drama'] as const;
export const StoryGenre = z.enum(STORY_GENRES, { error: 'Unknown genre' });
export type StoryGenre = z.infer<typeof StoryGenre>;

export const STORY_TONES = ['lighthearted', 'dark', 'romantic', 'suspenseful', 'whimsical', 'gritty'] as const;
export const StoryTone = z.enum(STORY_TONES, { error: 'Unknown tone' });
export type StoryTone = z.infer<typeof StoryTone>;

/** The languages a story is written in: the product's nine. */
export const STORY_LANGUAGES = ['en', 'es', 'fr', 'de', 'ru', 'zh', 'hi', 'pt', 'ko'] as const;
export const StoryLanguage = z.enum(STORY_LANGUAGES, { error: 'Unknown language' });
export type StoryLanguage = z.infer<typeof StoryLanguage>;

const Id = z.string().uuid();
const UserRef = z.object({ userId: Id });
const StoryRef = UserRef.extend({ storyId: Id });

export const StoryPremise = z
  .string({ error: 'Please describe how your story begins' })
  .max(STORY_LIMITS.premiseLength, `The premise can be at most ${STORY_LIMITS.premiseLength} characters`)
  .refine((value) => value.trim().length > 0, 'Please describe how your story begins')
  .transform((value) => value.trim());

export const StoryAction = z
  .string({ error: 'Please write what you do next' })
  .max(STORY_LIMITS.actionLength, `An action can be at most ${STORY_LIMITS.actionLength} characters`)
  .refine((value) => value.trim().length > 0, 'Please write what you do next')
  .transform((value) => value.trim());

export const StoryTitle = z
  .string({ error: 'The title must be text' })
  .trim()
  .max(STORY_LIMITS.titleLength, `The title must be at most ${STORY_LIMITS.titleLength} characters`);

export const SavePointLabel = z
  .string()
  .trim()
  .max(STORY_LIMITS.savePointLength, `A save point's name can be at most ${STORY_LIMITS.savePointLength} characters`);

export const StartStoryInput = z.object({
  premise: StoryPremise,
  /** Empty: the first words of the premise. */
  title: StoryTitle.nullish(),
  genre: StoryGenre.nullish(),
  tone: StoryTone.nullish(),
  /** The language passages are written in; the client sends the member's. */
  language: StoryLanguage.default('en'),
  /** The member's own or public characters who appear in the story. */
  characterIds: z
    .array(Id)
    .max(STORY_LIMITS.charactersMax, `A story can feature at most ${STORY_LIMITS.charactersMax} characters`)
    .default([]),
});
export type StartStoryInput = z.input<typeof StartStoryInput>;

export const Story = z.object({
  id: Id,
  ownerId: Id,
  title: z.string(),
  premise: z.string(),
  genre: StoryGenre.nullable(),
  tone: StoryTone.nullable(),
  language: StoryLanguage,
  characterIds: z.array(Id),
  characterNames: z.array(z.string()),
  /** The passage the member reads now (the end of the branch they are on); null before the opening exists. */
  currentPassageId: Id.nullable(),
  passageCount: z.number().int(),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
  lastPlayedAt: z.string().datetime(),
});
export type Story = z.infer<typeof Story>;

/** How the member reached a passage: the opening, one of the offered choices, or an action they wrote. */
export const STORY_ACTION_KINDS = ['opening', 'choice', 'action'] as const;
export const StoryActionKind = z.enum(STORY_ACTION_KINDS);
export type StoryActionKind = z.infer<typeof StoryActionKind>;

/** One node of a story's tree: the member's action and the passage the AI wrote for it, with the choices it offers. */
export const StoryPassage = z.object({
  id: Id,
  storyId: Id,
  /** The passage this one continues; null for an opening (a story may have several openings, as branches). */
  parentId: Id.nullable(),
  seq: z.number().int(),
  depth: z.number().int(),
  actionKind: StoryActionKind,
  /** The choice taken or the action written; null for an opening. */
  action: z.string().nullable(),
  content: z.string(),
  /** 2-4 choices once complete; empty while streaming or when the model offered none (the member writes an action). */
  choices: z.array(z.string()),
  status: MessageStatus,
  model: z.string().nullable(),
  errorCode: z.string().nullable(),
  /** The member's name for this passage as a save point; null when it is not one. */
  savePoint: z.string().nullable(),
  moderationState: ModerationState,
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
});
export type StoryPassage = z.infer<typeof StoryPassage>;

/** A passage as the branch map shows it: no full text. */
export const StoryMapNode = z.object({
  id: Id,
  parentId: Id.nullable(),
  depth: z.number().int(),
  actionKind: StoryActionKind,
  action: z.string().nullable(),
  /** The passage's first words. */
  excerpt: z.string(),
  status: MessageStatus,
  savePoint: z.string().nullable(),
  createdAt: z.string().datetime(),
});
export type StoryMapNode = z.infer<typeof StoryMapNode>;

/** A member's stories are always counted (one member keeps at most STORY_LIMITS.storiesPerMember). */
export const StoryPage = pageOf(Story).extend({ totalCount: z.number().int() });
export type StoryPage = z.infer<typeof StoryPage>;

export const storyRpc = {
  /** The member's stories, most recently played first (20 when no page size is named); counted. */
  listStories: defineRpc('svc.chat.story.list', paged(UserRef), StoryPage),
  getStory: defineRpc('svc.chat.story.get', StoryRef, Story),
  /**
   * Counts one of the month's stories (the `story` quota), charges 1 token for the opening and starts writing it;
   * returns at once, the opening streams to live subscribers.
   */
  startStory: defineRpc(
    'svc.chat.story.start',
    UserRef.extend({ input: StartStoryInput, ratings: ViewerRatings }),
    z.object({ story: Story, passage: StoryPassage }),
  ),
  /** Continues from `passageId` with one of its choices (1 token); the new passage becomes the current one. */
  chooseStoryOption: defineRpc(
    'svc.chat.story.choose',
    StoryRef.extend({
      passageId: Id,
      choiceIndex: z
        .number()
        .int()
        .min(0)
        .max(STORY_LIMITS.choicesMax - 1),
    }),
    StoryPassage,
  ),
  /** Continues from `passageId` with the member's own action (1 token). */
  takeStoryAction: defineRpc('svc.chat.story.act', StoryRef.extend({ passageId: Id, action: StoryAction }), StoryPassage),
  /** Writes the passage again as a new branch beside it, from the same action (1 token); the old one stays. */
  retellPassage: defineRpc('svc.chat.story.retell', StoryRef.extend({ passageId: Id }), StoryPassage),
  /** Passages from the opening to `passageId` (the current one when null), in reading order. */
  storyPath: defineRpc('svc.chat.story.path', StoryRef.extend({ passageId: Id.nullish() }), z.object({ passages: z.array(StoryPassage) })),
  /** Every passage of the story, as the branch map shows it, oldest first. */
  storyMap: defineRpc('svc.chat.story.map', StoryRef, z.object({ nodes: z.array(StoryMapNode) })),
  /** Goes back (or forward) to any passage: it becomes the current one; nothing is removed. */
  goToPassage: defineRpc('svc.chat.story.goto', StoryRef.extend({ passageId: Id }), Story),
  /** Names a passage as a save point; an empty name removes the save point. */
  setSavePoint: defineRpc('svc.chat.story.savepoint', StoryRef.extend({ passageId: Id, label: SavePointLabel }), StoryPassage),
  renameStory: defineRpc('svc.chat.story.rename', StoryRef.extend({ title: StoryTitle }), Story),
  deleteStory: defineRpc('svc.chat.story.delete', StoryRef, z.object({ ok: z.boolean() })),
  /** Stops the passage being written; text so far is kept. */
  stopStory: defineRpc('svc.chat.story.stop', StoryRef, z.object({ stopped: z.boolean() })),
  /** The branch that ends at `passageId` (the current one when null) as a Markdown document. */
  exportStory: defineRpc(
    'svc.chat.story.export',
    StoryRef.extend({ passageId: Id.nullish() }),
    z.object({ fileName: z.string(), markdown: z.string() }),
  ),
} as const;

/** Live (not stored) updates on `live.chat.story.<storyId>`, fanned out to the `storyUpdates` subscription. */
export const StoryLiveUpdate = z.discriminatedUnion('type', [
  z.object({ type: z.literal('typing'), storyId: Id, typing: z.boolean() }),
  /** `text` belongs at character `offset` of the passage being written; a client that has less than `offset` refetches. */
  z.object({
    type: z.literal('delta'),
    storyId: Id,
    passageId: Id,
    offset: z.number().int(),
    text: z.string(),
  }),
  z.object({ type: z.literal('passage'), storyId: Id, passage: StoryPassage }),
  z.object({ type: z.literal('story'), storyId: Id, story: Story }),
  z.object({ type: z.literal('deleted'), storyId: Id }),
]);
export type StoryLiveUpdate = z.infer<typeof StoryLiveUpdate>;

export const storyLiveSubject = (storyId: string) => `live.chat.story.${storyId}`;
export const STORY_LIVE_SUBJECTS = 'live.chat.story.*';

const PassageRef = z.object({ storyId: Id, passageId: Id, userId: Id });

export const storyEvents = {
  /** Counts toward the member's `storiesStarted`. */
  storyStarted: defineEvent(
    'evt.chat.story.started',
    1,
    z.object({ storyId: Id, genre: StoryGenre.nullable(), tone: StoryTone.nullable(), language: StoryLanguage, characterIds: z.array(Id) }),
  ),
  storyDeleted: defineEvent('evt.chat.story.deleted', 1, z.object({ storyId: Id })),
  passageStarted: defineEvent(
    'evt.chat.story.passage.started',
    1,
    PassageRef.extend({ parentId: Id.nullable(), actionKind: StoryActionKind, model: z.string(), isDemo: z.boolean() }),
  ),
  passageCompleted: defineEvent(
    'evt.chat.story.passage.completed',
    1,
    PassageRef.extend({
      model: z.string(),
      latencyMs: z.number().int(),
      firstChunkMs: z.number().int().nullable(),
      promptTokens: z.number().int().nullable(),
      completionTokens: z.number().int().nullable(),
      length: z.number().int(),
      choices: z.number().int(),
    }),
  ),
  passageFailed: defineEvent(
    'evt.chat.story.passage.failed',
    1,
    PassageRef.extend({ code: z.string(), cancelled: z.boolean(), refunded: z.boolean(), latencyMs: z.number().int() }),
  ),
} as const;
