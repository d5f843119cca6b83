import { randomUUID } from 'node:crypto';
import type { Transaction } from '@app/kit';
import { AppError, type ContentRating, type PageRequest, STORY_LIMITS, type StoryLiveUpdate, storyEvents } from '@app/schema';
import type { CharacterRow } from '../characters/characters.repository';
import type { GenerationJob, GenerationRef, Generations } from '../generation/generation';
import type { KeysetRows } from '../keyset-page';
import type { MapRow, NewPassage, NewStory, PassageOutcome, PassageRow, StoriesData, StoriesStore, StoryRow } from './stories.repository';
import { type StartStory, StoriesService, type StoriesConfig, titleFromPremise } from './stories.service';
import type { PassageCharge } from './story-ledger';

const MEMBER = '00000000-0000-4000-8000-00000000000a';
const STRANGER = '00000000-0000-4000-8000-00000000000b';

/** The stories' tables in memory, with the rules the SQL and its indexes keep (one streaming passage per story). */
class FakeStories implements StoriesData {
  stories = new Map<string, StoryRow>();
  passages = new Map<string, PassageRow>();
  private seq = 0;
  /** A clock that moves on at every write, so orders by time are never ties. */
  private clock = Date.now();
  failOn: keyof StoriesData | null = null;

  private check(method: keyof StoriesData): void {
    if (this.failOn === method) throw new Error(`${method} failed`);
  }

  async listByOwner(ownerId: string, request: PageRequest, defaultSize: number): Promise<KeysetRows<StoryRow>> {
    const rows = [...this.stories.values()]
      .filter((story) => story.owner_id === ownerId)
      .sort((a, b) => b.last_played_at.getTime() - a.last_played_at.getTime())
      .slice(0, request.first ?? defaultSize)
      .map((story) => ({ ...story, cursor_at: story.last_played_at.toISOString() }));
    return { rows, hasMoreInWindow: false, hasRowsBeforeWindow: false, hasRowsAfterWindow: false };
  }
  async countByOwner(ownerId: string) {
    return [...this.stories.values()].filter((story) => story.owner_id === ownerId).length;
  }
  async find(id: string, ownerId: string) {
    const story = this.stories.get(id);
    return story && story.owner_id === ownerId ? story : null;
  }
  async lockStartsOf() {}
  async insert(story: NewStory) {
    const now = this.now();
    const row: StoryRow = {
      id: story.id,
      owner_id: story.ownerId,
      title: story.title,
      premise: story.premise,
      genre: story.genre,
      tone: story.tone,
      language: story.language,
      characters: story.characters,
      current_passage_id: null,
      passage_count: 0,
      created_at: now,
      updated_at: now,
      last_played_at: now,
    };
    this.stories.set(row.id, row);
    return row;
  }
  async rename(id: string, ownerId: string, title: string) {
    const story = await this.find(id, ownerId);
    return story ? this.update(id, { title }) : null;
  }
  async delete(id: string, ownerId: string) {
    if (!(await this.find(id, ownerId))) return false;
    this.stories.delete(id);
    for (const passage of this.passages.values()) if (passage.story_id === id) this.passages.delete(passage.id);
    return true;
  }
  async moveTo(id: string, ownerId: string, passageId: string) {
    return (await this.find(id, ownerId)) ? this.update(id, { current_passage_id: passageId, last_played_at: this.now() }) : null;
  }
  async recordNewPassage(id: string, passageId: string) {
    const story = this.stories.get(id)!;
    return this.update(id, { current_passage_id: passageId, passage_count: story.passage_count + 1, last_played_at: this.now() });
  }
  async touch(id: string) {
    this.update(id, {});
  }
  async findPassage(id: string, storyId: string, ownerId: string) {
    const passage = this.passages.get(id);
    return passage && passage.story_id === storyId && passage.owner_id === ownerId ? passage : null;
  }
  async path(passageId: string, storyId: string, ownerId: string) {
    this.check('path');
    const path: PassageRow[] = [];
    for (let passage = await this.findPassage(passageId, storyId, ownerId); passage; ) {
      path.unshift(passage);
      passage = passage.parent_id ? this.passages.get(passage.parent_id)! : null;
    }
    return path;
  }
  async map(storyId: string, ownerId: string): Promise<MapRow[]> {
    return this.of(storyId)
      .filter((passage) => passage.owner_id === ownerId)
      .map((passage) => ({ ...passage, excerpt: passage.content.slice(0, 120) }));
  }
  async streamingIn(storyId: string) {
    return this.of(storyId).find((passage) => passage.status === 'streaming') ?? null;
  }
  async hasPaidPassage(storyId: string) {
    return this.of(storyId).some(
      (passage) => passage.status === 'complete' || (passage.status === 'cancelled' && passage.content.trim().length >= 40),
    );
  }
  async passagesInLastMinute(ownerId: string) {
    return [...this.passages.values()].filter(
      (passage) => passage.owner_id === ownerId && Date.now() - passage.created_at.getTime() < 60_000,
    ).length;
  }
  async insertPassage(passage: NewPassage) {
    this.check('insertPassage');
    if (this.of(passage.storyId).some((row) => row.status === 'streaming')) throw new Error('story_passages_one_streaming');
    const now = this.now();
    const row: PassageRow = {
      id: passage.id,
      seq: String(++this.seq),
      story_id: passage.storyId,
      owner_id: passage.ownerId,
      parent_id: passage.parentId,
      depth: passage.depth,
      action_kind: passage.actionKind,
      action: passage.action,
      content: '',
      choices: [],
      status: 'streaming',
      model: passage.model,
      error_code: null,
      debit_key: passage.debitKey,
      save_point: null,
      moderation_state: 'visible',
      created_at: now,
      updated_at: now,
    };
    this.passages.set(row.id, row);
    return row;
  }
  async setSavePoint(id: string, storyId: string, ownerId: string, label: string | null) {
    return (await this.findPassage(id, storyId, ownerId)) ? this.updatePassage(id, { save_point: label }) : null;
  }
  async saveProgress(id: string, content: string) {
    return this.passages.get(id)?.status === 'streaming' ? (this.updatePassage(id, { content }), true) : false;
  }
  async finishPassage(id: string, outcome: PassageOutcome) {
    if (this.passages.get(id)?.status !== 'streaming') return null;
    return this.updatePassage(id, {
      content: outcome.content,
      choices: outcome.choices,
      status: outcome.status,
      error_code: outcome.errorCode,
    });
  }
  async orphanedPassages() {
    return [];
  }
  async setPassageModerationState(id: string, state: PassageRow['moderation_state']) {
    this.updatePassage(id, { moderation_state: state });
  }

  private now() {
    return new Date(++this.clock);
  }
  private of(storyId: string) {
    return [...this.passages.values()].filter((passage) => passage.story_id === storyId).sort((a, b) => Number(a.seq) - Number(b.seq));
  }
  private update(id: string, change: Partial<StoryRow>) {
    const row = { ...this.stories.get(id)!, ...change, updated_at: this.now() };
    this.stories.set(id, row);
    return row;
  }
  updatePassage(id: string, change: Partial<PassageRow>) {
    const row = { ...this.passages.get(id)!, ...change };
    this.passages.set(id, row);
    return row;
  }
}

interface Emitted {
  type: string;
  data: Record<string, unknown>;
}

/** A unit of work over the fake tables: a transaction that throws leaves them, and its events, as they were. */
function fakeStore(stories: FakeStories, events: Emitted[]): StoriesStore {
  return {
    run: (work) => work({ stories }),
    async transaction(work) {
      const saved = { stories: new Map(stories.stories), passages: new Map(stories.passages) };
      const pending: Emitted[] = [];
      const tx = {
        emit: async (event: { type: string }, data: Record<string, unknown>) => {
          pending.push({ type: event.type, data });
        },
      } as unknown as Transaction;
      try {
        const result = await work({ stories }, tx);
        events.push(...pending);
        return result;
      } catch (error) {
        stories.stories = saved.stories;
        stories.passages = saved.passages;
        throw error;
      }
    },
  };
}

class FakeLedger {
  charges: { userId: string; debitKey: string; countsAsStory: boolean }[] = [];
  settled: string[] = [];
  abandoned: string[] = [];
  refuseWith: AppError | null = null;

  async charge(userId: string, debitKey: string, { countsAsStory }: PassageCharge) {
    if (this.refuseWith) throw this.refuseWith;
    this.charges.push({ userId, debitKey, countsAsStory });
  }
  async settle(debitKey: string) {
    this.settled.push(debitKey);
  }
  async abandon(_userId: string, debitKey: string) {
    this.abandoned.push(debitKey);
  }
}

class FakeEngine implements Generations {
  begun: GenerationJob[] = [];
  stops: string[] = [];
  abandoned: { ref: GenerationRef; code: string }[] = [];
  begin(job: GenerationJob) {
    this.begun.push(job);
  }
  async requestStop(turnId: string) {
    this.stops.push(turnId);
  }
  async abandon(ref: GenerationRef, code: string) {
    this.abandoned.push({ ref, code });
  }
}

const character = (id: string, ownerId: string, name: string): CharacterRow => ({
  id,
  owner_id: ownerId,
  name,
  description: `${name} is a retired pilot.`,
  traits: ['calm'],
  personality_text: null,
  is_public: false,
  scenario: '',
  greeting: '',
  example_dialogue: '',
  system_prompt: '',
  card: {},
  sampling: null,
  has_avatar: false,
  rating: 'safe',
  rating_locked: false,
  moderation_state: 'visible',
  owner_suspended: false,
  created_at: new Date(),
  updated_at: new Date(),
});

const CONFIG: StoriesConfig = { leaseMs: 15_000, sendsPerMinute: 20 };
const RATINGS: ContentRating[] = ['safe'];

function setup(config: StoriesConfig = CONFIG) {
  const stories = new FakeStories();
  const events: Emitted[] = [];
  const ledger = new FakeLedger();
  const engine = new FakeEngine();
  const live: StoryLiveUpdate[] = [];
  const policyChecks: { texts: unknown[]; path: string }[] = [];
  const visible = new Map<string, CharacterRow>();
  const policy = {
    async assertAllowed(texts: readonly (string | null | undefined)[], context: { path: string }) {
      policyChecks.push({ texts: [...texts], path: context.path });
      if (texts.some((text) => text?.includes('FORBIDDEN'))) throw new AppError('CONTENT_REJECTED', 'Not allowed');
    },
  };
  const characters = { findVisibleRow: async (_userId: string, id: string) => visible.get(id) ?? null };
  const provider = { model: 'demo', isDemo: true, contextTokens: 4096, maxReplyTokens: 200 };
  const service = new StoriesService(fakeStore(stories, events), ledger, characters, engine, provider, config, policy as never, {
    publish: async (update) => void live.push(update),
  });
  /** The engine wrote the passage: it completes with these choices. */
  const complete = (passageId: string, choices = ['Open the door', 'Run away', 'Call for help'], content = 'The bottle glows.') =>
    stories.updatePassage(passageId, { status: 'complete', content, choices });
  const fail = (passageId: string) => stories.updatePassage(passageId, { status: 'failed', error_code: 'UNAVAILABLE' });
  const start = (input: Partial<StartStory> = {}) =>
    service.start(
      MEMBER,
      { premise: 'A lighthouse keeper finds a message in a bottle.', language: 'en', characterIds: [], ...input },
      RATINGS,
    );
  return { service, stories, events, ledger, engine, live, policyChecks, visible, complete, fail, start };
}

const codeOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

describe('titleFromPremise', () => {
  it('takes the first words of the premise, at most 60 characters, cut at a word', () => {
    expect(titleFromPremise('A keeper finds a bottle.')).toBe('A keeper finds a bottle');
    const title = titleFromPremise('On the night the lighthouse went dark, the keeper found a message that changed everything');
    expect(title).toBe('On the night the lighthouse went dark, the keeper found a');
    expect(title.length).toBeLessThanOrEqual(60);
    expect(titleFromPremise('x'.repeat(100))).toHaveLength(60);
  });
});

describe('StoriesService.start', () => {
  it('stores the story and its opening, charges 1 token counted as one of the month’s stories, and starts writing', async () => {
    const { start, ledger, events, engine } = setup();
    const { story, passage } = await start({ genre: 'mystery', tone: 'dark' });

    expect(story).toMatchObject({
      title: 'A lighthouse keeper finds a message in a bottle',
      currentPassageId: passage.id,
      passageCount: 1,
    });
    expect(passage).toMatchObject({
      storyId: story.id,
      parentId: null,
      depth: 0,
      actionKind: 'opening',
      status: 'streaming',
      model: 'demo',
    });
    const debitKey = `story-passage:${passage.id}`;
    expect(ledger.charges).toEqual([{ userId: MEMBER, debitKey, countsAsStory: true }]);
    expect(ledger.settled).toEqual([debitKey]);
    expect(events.map((event) => event.type)).toEqual([storyEvents.storyStarted.type, storyEvents.passageStarted.type]);
    expect(events[0]!.data).toMatchObject({ storyId: story.id, genre: 'mystery', tone: 'dark', language: 'en' });
    expect(engine.begun).toHaveLength(1);
    expect(engine.begun[0]).toMatchObject({
      kind: 'story_passage',
      subjectId: story.id,
      turnId: passage.id,
      variant: 0,
      debitKey,
      userId: MEMBER,
    });
    expect(engine.begun[0]!.prompt.map((message) => message.content)).toContain(
      'Premise: A lighthouse keeper finds a message in a bottle.',
    );
  });

  it('keeps a title the member gave, and checks premise and title against the content rules', async () => {
    const { start, policyChecks } = setup();
    const { story } = await start({ title: 'The Keeper' });
    expect(story.title).toBe('The Keeper');
    expect(policyChecks).toEqual([{ texts: ['A lighthouse keeper finds a message in a bottle.', 'The Keeper'], path: 'story' }]);
  });

  it('refuses a premise against the content rules before charging anything', async () => {
    const { start, ledger, stories } = setup();
    expect(await codeOf(start({ premise: 'FORBIDDEN things' }))).toBe('CONTENT_REJECTED');
    expect(ledger.charges).toEqual([]);
    expect(stories.stories.size).toBe(0);
  });

  it('features the member’s or public characters, and no character they cannot see', async () => {
    const { start, visible, ledger, engine } = setup();
    const maraId = randomUUID();
    visible.set(maraId, character(maraId, STRANGER, 'Mara'));
    const { story } = await start({ characterIds: [maraId] });
    expect(story).toMatchObject({ characterIds: [maraId], characterNames: ['Mara'] });
    expect(engine.begun[0]!.prompt[0]!.content).toContain('Mara is a retired pilot.');

    expect(await codeOf(start({ characterIds: [randomUUID()] }))).toBe('NOT_FOUND');
    expect(ledger.charges).toHaveLength(1);
  });

  it('refuses a story past the most one member keeps', async () => {
    const { start, stories, ledger } = setup();
    for (let index = 0; index < STORY_LIMITS.storiesPerMember; index++) {
      await stories.insert({
        id: randomUUID(),
        ownerId: MEMBER,
        title: 't',
        premise: 'p',
        genre: null,
        tone: null,
        language: 'en',
        characters: [],
      });
    }
    expect(await codeOf(start())).toBe('QUOTA_EXCEEDED');
    expect(ledger.charges).toEqual([]);
  });

  it('holds a member to the pace of passages per minute', async () => {
    const { start, ledger } = setup({ ...CONFIG, sendsPerMinute: 2 });
    await start();
    await start();
    const error = await start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 60 } });
    expect(ledger.charges).toHaveLength(2);
  });

  it('stores nothing when identity refuses the charge (the free plan’s stories are used up)', async () => {
    const { start, ledger, stories, engine } = setup();
    ledger.refuseWith = new AppError('QUOTA_EXCEEDED', 'You have used your 2 stories this month.', { quota: 'story' });
    expect(await codeOf(start())).toBe('QUOTA_EXCEEDED');
    expect(stories.stories.size).toBe(0);
    expect(engine.begun).toEqual([]);
  });

  it('gives the charge back when the story cannot be stored', async () => {
    const { start, ledger, stories, events } = setup();
    stories.failOn = 'insertPassage';
    await expect(start()).rejects.toThrow('insertPassage failed');
    expect(ledger.abandoned).toEqual([ledger.charges[0]!.debitKey]);
    expect(stories.stories.size).toBe(0);
    expect(events).toEqual([]);
  });
});

describe('StoriesService.choose / act / retell', () => {
  it('continues with a choice: a child of the passage, now the current one, 1 token without the story quota', async () => {
    const { start, service, complete, ledger, engine, live } = setup();
    const { story, passage } = await start();
    complete(passage.id);
    const next = await service.choose(MEMBER, story.id, passage.id, 1);

    expect(next).toMatchObject({ parentId: passage.id, depth: 1, actionKind: 'choice', action: 'Run away', status: 'streaming' });
    expect(ledger.charges[1]).toEqual({ userId: MEMBER, debitKey: `story-passage:${next.id}`, countsAsStory: false });
    expect(await service.get(MEMBER, story.id)).toMatchObject({ currentPassageId: next.id, passageCount: 2 });
    const prompt = engine.begun[1]!.prompt;
    expect(prompt.map((message) => message.content)).toContain('The bottle glows.');
    expect(prompt[prompt.length - 1]).toEqual({ role: 'user', content: 'The reader chooses: Run away' });
    expect(live.map((update) => update.type)).toEqual(['story', 'passage']);
  });

  it('continues from a stopped passage with the choices it got to write', async () => {
    const { start, service, stories } = setup();
    const { story, passage } = await start();
    stories.updatePassage(passage.id, { status: 'cancelled', content: 'The bottle', choices: ['Open it', 'Drop it'] });
    expect(await service.choose(MEMBER, story.id, passage.id, 1)).toMatchObject({ parentId: passage.id, action: 'Drop it' });
  });

  it('refuses a choice the passage does not offer, without charging', async () => {
    const { start, service, complete, ledger } = setup();
    const { story, passage } = await start();
    complete(passage.id, ['One', 'Two']);
    expect(await codeOf(service.choose(MEMBER, story.id, passage.id, 2))).toBe('VALIDATION_FAILED');
    expect(ledger.charges).toHaveLength(1);
  });

  it('writes one passage of a story at a time', async () => {
    const { start, service, complete, ledger } = setup();
    const { story, passage } = await start();
    complete(passage.id);
    await service.choose(MEMBER, story.id, passage.id, 0);
    const error = await service.choose(MEMBER, story.id, passage.id, 1).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CONFLICT', message: 'Wait for the current passage to finish, or stop it.' });
    expect(await codeOf(service.act(MEMBER, story.id, passage.id, 'I wait.'))).toBe('CONFLICT');
    expect(await codeOf(service.retell(MEMBER, story.id, passage.id))).toBe('CONFLICT');
    expect(ledger.charges).toHaveLength(2);
  });

  it('continues with the member’s own action, checked against the content rules', async () => {
    const { start, service, complete, engine, policyChecks, ledger } = setup();
    const { story, passage } = await start();
    complete(passage.id);
    expect(await codeOf(service.act(MEMBER, story.id, passage.id, 'FORBIDDEN act'))).toBe('CONTENT_REJECTED');
    expect(ledger.charges).toHaveLength(1);
    const next = await service.act(MEMBER, story.id, passage.id, 'I read the letter aloud.');
    expect(next).toMatchObject({ parentId: passage.id, actionKind: 'action', action: 'I read the letter aloud.' });
    expect(policyChecks.at(-1)).toEqual({ texts: ['I read the letter aloud.'], path: 'story' });
    expect(engine.begun[1]!.prompt.at(-1)).toEqual({ role: 'user', content: 'The reader does this: I read the letter aloud.' });
  });

  it('does not continue from a passage that was not written or that a moderator removed', async () => {
    const { start, service, complete, fail, stories } = setup();
    const { story, passage } = await start();
    fail(passage.id);
    expect(await codeOf(service.act(MEMBER, story.id, passage.id, 'I wait.'))).toBe('CONFLICT');
    expect(await codeOf(service.choose(MEMBER, story.id, passage.id, 0))).toBe('VALIDATION_FAILED');
    complete(passage.id);
    stories.updatePassage(passage.id, { moderation_state: 'removed' });
    expect(await codeOf(service.choose(MEMBER, story.id, passage.id, 0))).toBe('CONFLICT');
  });

  it('stops at the most passages one story keeps', async () => {
    const { start, service, complete, stories, ledger } = setup();
    const { story, passage } = await start();
    complete(passage.id);
    stories.stories.set(story.id, { ...stories.stories.get(story.id)!, passage_count: STORY_LIMITS.passagesPerStory });
    expect(await codeOf(service.choose(MEMBER, story.id, passage.id, 0))).toBe('QUOTA_EXCEEDED');
    expect(ledger.charges).toHaveLength(1);
  });

  it('retells a passage as a new branch beside it, keeping the old one', async () => {
    const { start, service, complete } = setup();
    const { story, passage } = await start();
    complete(passage.id);
    const first = await service.choose(MEMBER, story.id, passage.id, 0);
    complete(first.id, ['A', 'B'], 'You open the door.');
    const again = await service.retell(MEMBER, story.id, first.id);

    expect(again).toMatchObject({ parentId: passage.id, depth: 1, actionKind: 'choice', action: 'Open the door' });
    expect(again.id).not.toBe(first.id);
    const map = await service.map(MEMBER, story.id);
    expect(map.map((node) => [node.id, node.parentId])).toEqual([
      [passage.id, null],
      [first.id, passage.id],
      [again.id, passage.id],
    ]);
    expect(map[1]!.excerpt).toBe('You open the door.');
  });

  it('counts a retold opening as the month’s story only while the story has no passage written', async () => {
    const { start, service, complete, fail, ledger } = setup();
    const { story, passage } = await start();
    fail(passage.id);
    const second = await service.retell(MEMBER, story.id, passage.id);
    expect(second).toMatchObject({ parentId: null, actionKind: 'opening' });
    expect(ledger.charges[1]!.countsAsStory).toBe(true);
    complete(second.id);
    await service.retell(MEMBER, story.id, second.id);
    expect(ledger.charges[2]!.countsAsStory).toBe(false);
  });

  it('fails the passage through the engine (which refunds it) when its prompt cannot be built', async () => {
    const { start, service, complete, stories, engine } = setup();
    const { story, passage } = await start();
    complete(passage.id);
    stories.failOn = 'path';
    const next = await service.choose(MEMBER, story.id, passage.id, 0);
    expect(engine.begun).toHaveLength(1);
    expect(engine.abandoned).toEqual([
      {
        ref: {
          kind: 'story_passage',
          subjectId: story.id,
          turnId: next.id,
          userId: MEMBER,
          variant: 0,
          debitKey: `story-passage:${next.id}`,
        },
        code: 'INTERNAL',
      },
    ]);
  });
});

describe('StoriesService: reading and steering a story', () => {
  async function played() {
    const context = setup();
    const { story, passage } = await context.start();
    context.complete(passage.id);
    const second = await context.service.choose(MEMBER, story.id, passage.id, 0);
    context.complete(second.id, ['Up', 'Down'], 'A staircase.');
    const third = await context.service.act(MEMBER, story.id, second.id, 'I climb.');
    context.complete(third.id, ['Left', 'Right'], 'A window.');
    return { ...context, story, opening: passage, second, third };
  }

  it('reads the branch from the opening to the current passage, or to any passage named', async () => {
    const { service, story, opening, second, third } = await played();
    expect((await service.path(MEMBER, story.id, null)).map((passage) => passage.id)).toEqual([opening.id, second.id, third.id]);
    expect((await service.path(MEMBER, story.id, second.id)).map((passage) => passage.id)).toEqual([opening.id, second.id]);
  });

  it('goes back to an earlier passage and takes another branch from there; nothing is lost', async () => {
    const { service, story, opening, live } = await played();
    const moved = await service.goTo(MEMBER, story.id, opening.id);
    expect(moved.currentPassageId).toBe(opening.id);
    expect(live.at(-1)).toEqual({ type: 'story', storyId: story.id, story: moved });
    const branch = await service.choose(MEMBER, story.id, opening.id, 2);
    expect((await service.path(MEMBER, story.id, null)).map((passage) => passage.id)).toEqual([opening.id, branch.id]);
    expect(await service.map(MEMBER, story.id)).toHaveLength(4);
  });

  it('serves a removed passage without its text, and never reads it back to the model', async () => {
    const { service, story, second, third, stories, engine } = await played();
    stories.updatePassage(second.id, { moderation_state: 'removed' });
    const path = await service.path(MEMBER, story.id, null);
    expect(path[1]).toMatchObject({ id: second.id, content: '', choices: [], moderationState: 'removed' });
    expect((await service.map(MEMBER, story.id))[1]!.excerpt).toBe('');
    await service.act(MEMBER, story.id, third.id, 'I jump.');
    expect(engine.begun.at(-1)!.prompt.some((message) => message.content === 'A staircase.')).toBe(false);
  });

  it('names save points and removes them with an empty name', async () => {
    const { service, story, second } = await played();
    expect((await service.setSavePoint(MEMBER, story.id, second.id, ' Staircase ')).savePoint).toBe('Staircase');
    expect((await service.setSavePoint(MEMBER, story.id, second.id, '')).savePoint).toBeNull();
  });

  it('renames a story (checked against the content rules); an empty title names it by its premise again', async () => {
    const { service, story } = await played();
    expect((await service.rename(MEMBER, story.id, 'The Keeper')).title).toBe('The Keeper');
    expect(await codeOf(service.rename(MEMBER, story.id, 'FORBIDDEN'))).toBe('CONTENT_REJECTED');
    expect((await service.rename(MEMBER, story.id, '  ')).title).toBe('A lighthouse keeper finds a message in a bottle');
  });

  it('stops the passage being written, and says when there is none', async () => {
    const { service, story, third, engine } = await played();
    expect(await service.stop(MEMBER, story.id)).toBe(false);
    const fourth = await service.act(MEMBER, story.id, third.id, 'I wait.');
    expect(await service.stop(MEMBER, story.id)).toBe(true);
    expect(engine.stops).toEqual([fourth.id]);
  });

  it('deletes a story: stops its passage being written, announces it, and tells live subscribers', async () => {
    const { service, story, third, engine, events, live } = await played();
    const fourth = await service.act(MEMBER, story.id, third.id, 'I wait.');
    await service.delete(MEMBER, story.id);
    expect(engine.stops).toEqual([fourth.id]);
    expect(events.at(-1)).toEqual({ type: storyEvents.storyDeleted.type, data: { storyId: story.id } });
    expect(live.at(-1)).toEqual({ type: 'deleted', storyId: story.id });
    expect(await codeOf(service.get(MEMBER, story.id))).toBe('NOT_FOUND');
  });

  it('exports the current branch as Markdown', async () => {
    const { service, story } = await played();
    const { fileName, markdown } = await service.export(MEMBER, story.id, null);
    expect(fileName).toBe('a-lighthouse-keeper-finds-a-message-in-a-bottle.md');
    expect(markdown).toContain('> Open the door\n\nA staircase.\n\n> I climb.\n\nA window.');
  });

  it('lists the member’s stories, most recently played first, counted', async () => {
    const { service, start, story } = await played();
    const { story: newer } = await start({ premise: 'A second tale.' });
    const page = await service.list(MEMBER, {});
    expect(page.items.map((item) => item.id)).toEqual([newer.id, story.id]);
    expect(page.totalCount).toBe(2);
    await service.goTo(MEMBER, story.id, story.currentPassageId!);
    expect((await service.list(MEMBER, {})).items.map((item) => item.id)).toEqual([story.id, newer.id]);
    expect((await service.list(STRANGER, {})).totalCount).toBe(0);
  });

  it('answers NOT_FOUND for another member’s story or passage, and for a passage of another story', async () => {
    const { service, start, story, second, ledger } = await played();
    const charged = ledger.charges.length;
    expect(await codeOf(service.get(STRANGER, story.id))).toBe('NOT_FOUND');
    expect(await codeOf(service.choose(STRANGER, story.id, second.id, 0))).toBe('NOT_FOUND');
    expect(await codeOf(service.act(STRANGER, story.id, second.id, 'I take over.'))).toBe('NOT_FOUND');
    expect(await codeOf(service.retell(STRANGER, story.id, second.id))).toBe('NOT_FOUND');
    expect(await codeOf(service.path(STRANGER, story.id, null))).toBe('NOT_FOUND');
    expect(await codeOf(service.map(STRANGER, story.id))).toBe('NOT_FOUND');
    expect(await codeOf(service.goTo(STRANGER, story.id, second.id))).toBe('NOT_FOUND');
    expect(await codeOf(service.setSavePoint(STRANGER, story.id, second.id, 'Mine'))).toBe('NOT_FOUND');
    expect(await codeOf(service.rename(STRANGER, story.id, 'Mine'))).toBe('NOT_FOUND');
    expect(await codeOf(service.stop(STRANGER, story.id))).toBe('NOT_FOUND');
    expect(await codeOf(service.export(STRANGER, story.id, null))).toBe('NOT_FOUND');
    expect(await codeOf(service.delete(STRANGER, story.id))).toBe('NOT_FOUND');
    const { story: other } = await start({ premise: 'Another tale.' });
    expect(await codeOf(service.goTo(MEMBER, other.id, second.id))).toBe('NOT_FOUND');
    expect(await codeOf(service.path(MEMBER, other.id, second.id))).toBe('NOT_FOUND');
    expect(ledger.charges).toHaveLength(charged + 1);
    expect(await service.get(MEMBER, story.id)).toMatchObject({ id: story.id });
  });
});
