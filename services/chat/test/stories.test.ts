import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import { mediaService } from '@app/media';
import { TestClient, collect, registration } from '../../../gateway/test/http-client';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';
import { createChatService } from '../src';
import { ScriptedProvider } from './scripted-provider';

jest.setTimeout(60_000);

type Passage = {
  id: string;
  storyId: string;
  parentId: string | null;
  depth: number;
  actionKind: string;
  action: string | null;
  content: string;
  choices: string[];
  status: string;
  model: string | null;
  isDemo: boolean;
  errorCode: string | null;
  savePoint: string | null;
};
type Story = { id: string; title: string; premise: string; genre: string | null; tone: string | null; currentPassageId: string | null };
type MapNode = {
  id: string;
  parentId: string | null;
  actionKind: string;
  action: string | null;
  excerpt: string;
  savePoint: string | null;
};
type StoryUpdate = {
  storyUpdates: {
    type: string;
    typing: boolean | null;
    passageId: string | null;
    offset: number | null;
    text: string | null;
    passage: Passage | null;
  };
};
type Reply<T> = { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] };

const PASSAGE_FIELDS = 'id storyId parentId depth actionKind action content choices status model isDemo errorCode savePoint';
const STORY_FIELDS = 'id title premise genre tone currentPassageId passageCount';
const UPDATES = (id: string) =>
  `subscription { storyUpdates(storyId: "${id}") { type typing passageId offset text passage { ${PASSAGE_FIELDS} } } }`;

const START = `mutation($input: StartStoryInput!) { startStory(input: $input) { story { ${STORY_FIELDS} } passage { ${PASSAGE_FIELDS} } } }`;
const CHOOSE = `mutation($s: ID!, $p: ID!, $i: Int!) { chooseStoryOption(storyId: $s, passageId: $p, choiceIndex: $i) { ${PASSAGE_FIELDS} } }`;
const ACT = `mutation($s: ID!, $p: ID!, $a: String!) { takeStoryAction(storyId: $s, passageId: $p, action: $a) { ${PASSAGE_FIELDS} } }`;
const PATH = `query($s: ID!, $p: ID) { storyPath(storyId: $s, passageId: $p) { ${PASSAGE_FIELDS} } }`;
const MAP = `query($s: ID!) { storyMap(storyId: $s) { id parentId actionKind action excerpt savePoint } }`;
const STORY = `query($id: ID!) { story(id: $id) { ${STORY_FIELDS} } }`;

const PREMISE = 'A lighthouse keeper finds a door in the rock below the tower.';
const OPENING = 'The storm has passed. At low tide a door of black iron stands open in the cliff.';
const CHOICES = ['Step inside with a lantern', 'Wait for the tide to turn', 'Call out into the dark'];

/** What a model writes as the narrator: the passage, the `### Choices` line, then numbered options, in streamed pieces. */
function narratorWords(prose: string, choices: string[] = CHOICES): string[] {
  const words = prose.split(/(?= )/);
  return [...words, '\n\n### Choices\n', ...choices.map((choice, i) => `${i + 1}. ${choice}\n`)];
}

/** Follows a story's live updates; closing the socket afterwards is expected, not a failure. */
function follow(ws: ReturnType<TestClient['subscriptions']>, id: string) {
  const stream = collect<StoryUpdate>(ws, UPDATES(id), 100_000);
  stream.done.catch(() => undefined);
  return stream;
}

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('stories on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  const provider = new ScriptedProvider();

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
      services: [identityService, createChatService({ provider, sweepIntervalMs: 200, flushIntervalMs: 50 }), mediaService],
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });
  beforeEach(() => {
    provider.words = narratorWords(OPENING);
    provider.delayMs = 5;
    provider.failAfter = null;
  });

  async function member(): Promise<TestClient> {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration({ firstName: 'Mira' }) });
    expect(response.status).toBe(201);
    return client;
  }

  const balance = async (client: TestClient) => ((await (await client.fetch('/api/user')).json()) as { tokens: number }).tokens;
  const memberId = async (client: TestClient) => ((await (await client.fetch('/api/user')).json()) as { id: string }).id;

  async function startStory(client: TestClient, input: Record<string, unknown> = { premise: PREMISE }) {
    const started = await client.graphql<{ startStory: { story: Story; passage: Passage } }>(START, { input });
    expect(started.errors).toBeUndefined();
    return started.data!.startStory;
  }

  /** The passage once it has finished being written (read back through storyPath, as a reloaded page would). */
  async function finished(client: TestClient, storyId: string, passageId: string): Promise<Passage> {
    let passage: Passage | undefined;
    await eventually(async () => {
      const path = await client.graphql<{ storyPath: Passage[] }>(PATH, { s: storyId, p: passageId });
      passage = path.data?.storyPath.at(-1);
      expect(passage).toMatchObject({ id: passageId });
      expect(passage!.status).not.toBe('STREAMING');
    }, 10_000);
    return passage!;
  }

  async function choose(client: TestClient, storyId: string, passageId: string, index: number): Promise<Passage> {
    const chosen = await client.graphql<{ chooseStoryOption: Passage }>(CHOOSE, { s: storyId, p: passageId, i: index });
    expect(chosen.errors).toBeUndefined();
    return chosen.data!.chooseStoryOption;
  }

  describe('playing a story', () => {
    it('streams the opening live and ends it with its choices; the opening costs 1 token', async () => {
      provider.delayMs = 60;
      const client = await member();
      const { story, passage } = await startStory(client, { premise: PREMISE, genre: 'MYSTERY', tone: 'SUSPENSEFUL' });
      expect(story).toMatchObject({ premise: PREMISE, genre: 'MYSTERY', tone: 'SUSPENSEFUL', currentPassageId: passage.id });
      expect(story.title.length).toBeGreaterThan(0);
      expect(PREMISE.startsWith(story.title)).toBe(true);
      expect(passage).toMatchObject({ storyId: story.id, parentId: null, actionKind: 'OPENING', action: null, status: 'STREAMING' });

      const ws = client.subscriptions();
      const stream = follow(ws, story.id);
      const final = () => stream.values.map((v) => v.storyUpdates).find((u) => u.type === 'PASSAGE' && u.passage?.status !== 'STREAMING');
      await eventually(() => expect(final()).toBeDefined(), 15_000);
      await eventually(() =>
        expect(stream.values.some((v) => v.storyUpdates.type === 'TYPING' && v.storyUpdates.typing === false)).toBe(true),
      );
      stream.stop();
      await ws.dispose();

      const opening = final()!.passage!;
      expect(opening).toMatchObject({ id: passage.id, status: 'COMPLETE', choices: CHOICES, model: 'scripted-model', isDemo: false });
      expect(opening.content.trim()).toBe(OPENING);
      // Live text joined late still fits the passage where its offset says (the raw text carries the choices block).
      const raw = provider.words.join('');
      const deltas = stream.values.map((v) => v.storyUpdates).filter((u) => u.type === 'DELTA');
      expect(deltas.length).toBeGreaterThan(0);
      for (const delta of deltas) expect(raw.slice(delta.offset!, delta.offset! + delta.text!.length)).toBe(delta.text);
      expect(await balance(client)).toBe(14);

      const listed = await client.graphql<{ stories: { totalCount: number; nodes: Story[] } }>(
        `{ stories(first: 10) { totalCount nodes { ${STORY_FIELDS} } } }`,
      );
      expect(listed.data?.stories).toMatchObject({ totalCount: 1, nodes: [{ id: story.id, currentPassageId: passage.id }] });
    });

    it('continues with a choice, goes back to the opening for another branch, and maps both; 1 token a passage', async () => {
      const client = await member();
      const { story, passage } = await startStory(client);
      const opening = await finished(client, story.id, passage.id);
      expect(opening.choices).toEqual(CHOICES);

      provider.words = narratorWords('Inside, the stairs wind down to a flooded hall.', ['Swim', 'Turn back']);
      const first = await choose(client, story.id, opening.id, 0);
      expect(first).toMatchObject({ parentId: opening.id, depth: opening.depth + 1, actionKind: 'CHOICE', action: CHOICES[0] });
      const firstDone = await finished(client, story.id, first.id);
      expect(firstDone).toMatchObject({ status: 'COMPLETE', choices: ['Swim', 'Turn back'] });
      expect((await client.graphql<{ story: Story }>(STORY, { id: story.id })).data?.story.currentPassageId).toBe(first.id);
      const path = await client.graphql<{ storyPath: Passage[] }>(PATH, { s: story.id });
      expect(path.data?.storyPath.map((p) => p.id)).toEqual([opening.id, first.id]);

      const back = await client.graphql<{ goToPassage: Story }>(
        `mutation($s: ID!, $p: ID!) { goToPassage(storyId: $s, passageId: $p) { ${STORY_FIELDS} } }`,
        { s: story.id, p: opening.id },
      );
      expect(back.data?.goToPassage.currentPassageId).toBe(opening.id);
      provider.words = narratorWords('The tide rises and the door slowly closes.');
      const second = await choose(client, story.id, opening.id, 1);
      expect(second).toMatchObject({ parentId: opening.id, actionKind: 'CHOICE', action: CHOICES[1] });
      await finished(client, story.id, second.id);

      const map = (await client.graphql<{ storyMap: MapNode[] }>(MAP, { s: story.id })).data!.storyMap;
      expect(map.map((node) => node.id)).toEqual([opening.id, first.id, second.id]);
      expect(map.filter((node) => node.parentId === opening.id).map((node) => node.action)).toEqual([CHOICES[0], CHOICES[1]]);
      expect(map[1]!.excerpt.length).toBeGreaterThan(0);
      expect('Inside, the stairs wind down to a flooded hall.'.startsWith(map[1]!.excerpt.trim().replace(/…$/, ''))).toBe(true);
      // The first branch is still there to read.
      const firstBranch = await client.graphql<{ storyPath: Passage[] }>(PATH, { s: story.id, p: first.id });
      expect(firstBranch.data?.storyPath.map((p) => p.id)).toEqual([opening.id, first.id]);
      expect(await balance(client)).toBe(12);
    });

    it("continues with the member's own action, and refuses a choice the passage did not offer", async () => {
      const client = await member();
      const { story, passage } = await startStory(client);
      await finished(client, story.id, passage.id);
      provider.words = narratorWords('The torch flares and shadows flee along the walls.');
      const acted = await client.graphql<{ takeStoryAction: Passage }>(ACT, { s: story.id, p: passage.id, a: '  I light a torch.  ' });
      expect(acted.data?.takeStoryAction).toMatchObject({ parentId: passage.id, actionKind: 'ACTION', action: 'I light a torch.' });
      const done = await finished(client, story.id, acted.data!.takeStoryAction.id);
      expect(done.content.trim()).toBe('The torch flares and shadows flee along the walls.');

      const blank = await client.graphql(ACT, { s: story.id, p: passage.id, a: '   ' });
      expect(blank.errors?.[0]).toMatchObject({ message: 'Please write what you do next', extensions: { code: 'VALIDATION_FAILED' } });
      // Three choices were offered: a fourth is not one of them.
      const unoffered = await client.graphql(CHOOSE, { s: story.id, p: passage.id, i: 3 });
      expect(unoffered.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
      expect(await balance(client)).toBe(13);
    });

    it('renames, names save points, lists the last played first, and deletes', async () => {
      const client = await member();
      const older = await startStory(client, { premise: 'A caravan crosses the salt flats.', title: 'Salt' });
      await finished(client, older.story.id, older.passage.id);
      const newer = await startStory(client, { premise: PREMISE, title: 'Lighthouse' });
      await finished(client, newer.story.id, newer.passage.id);
      const list = async () =>
        (await client.graphql<{ stories: { nodes: Story[] } }>('{ stories { nodes { id title } } }')).data!.stories.nodes.map(
          (s) => s.title,
        );
      expect(await list()).toEqual(['Lighthouse', 'Salt']);
      // Playing the older story brings it to the top.
      await choose(client, older.story.id, older.passage.id, 0);
      await eventually(async () => expect(await list()).toEqual(['Salt', 'Lighthouse']));

      const renamed = await client.graphql<{ renameStory: Story }>(
        `mutation($id: ID!) { renameStory(id: $id, title: "  The Door  ") { title } }`,
        {
          id: newer.story.id,
        },
      );
      expect(renamed.data?.renameStory.title).toBe('The Door');
      const saved = await client.graphql<{ setSavePoint: Passage }>(
        `mutation($s: ID!, $p: ID!) { setSavePoint(storyId: $s, passageId: $p, label: "Before the door") { ${PASSAGE_FIELDS} } }`,
        { s: newer.story.id, p: newer.passage.id },
      );
      expect(saved.data?.setSavePoint.savePoint).toBe('Before the door');
      const map = (await client.graphql<{ storyMap: MapNode[] }>(MAP, { s: newer.story.id })).data!.storyMap;
      expect(map[0]!.savePoint).toBe('Before the door');

      const deleted = await client.graphql<{ deleteStory: string }>(`mutation($id: ID!) { deleteStory(id: $id) }`, { id: newer.story.id });
      expect(deleted.data?.deleteStory).toBe(newer.story.id);
      const gone = await client.graphql(STORY, { id: newer.story.id });
      expect(gone.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(await list()).toEqual(['Salt']);
    });

    it('exports the branch as Markdown with its passages and the choice taken', async () => {
      const client = await member();
      const { story, passage } = await startStory(client, { premise: PREMISE, title: 'The Iron Door' });
      await finished(client, story.id, passage.id);
      provider.words = narratorWords('Inside, the stairs wind down to a flooded hall.');
      const next = await choose(client, story.id, passage.id, 0);
      await finished(client, story.id, next.id);
      const exported = await client.graphql<{ storyExport: { fileName: string; markdown: string } }>(
        `query($s: ID!) { storyExport(storyId: $s) { fileName markdown } }`,
        { s: story.id },
      );
      const { fileName, markdown } = exported.data!.storyExport;
      expect(fileName).toMatch(/\.md$/);
      expect(fileName).not.toMatch(/[\s/\\]/);
      expect(markdown).toContain('The Iron Door');
      expect(markdown).toContain(OPENING);
      expect(markdown).toContain(CHOICES[0]);
      expect(markdown).toContain('Inside, the stairs wind down to a flooded hall.');
      expect(markdown.indexOf(OPENING)).toBeLessThan(markdown.indexOf(CHOICES[0]!));
      expect(markdown.indexOf(CHOICES[0]!)).toBeLessThan(markdown.indexOf('Inside, the stairs'));
      // The choices block is not part of the story text.
      expect(markdown).not.toContain('### Choices');
    });

    it('resolves a story through node(id:) for its owner only', async () => {
      const alice = await member();
      const { story } = await startStory(alice);
      const query = `query($id: ID!) { node(id: $id) { __typename ... on Story { id title } } }`;
      expect((await alice.graphql<{ node: unknown }>(query, { id: story.id })).data?.node).toEqual({
        __typename: 'Story',
        id: story.id,
        title: story.title,
      });
      const bob = await member();
      expect((await bob.graphql<{ node: unknown }>(query, { id: story.id })).data?.node).toBeNull();
    });
  });

  describe('tokens and the free plan', () => {
    it('counts 2 stories a month on the free plan: the third is QUOTA_EXCEEDED and charges nothing', async () => {
      const client = await member();
      for (const premise of ['A caravan crosses the salt flats.', 'A letter arrives a hundred years late.']) {
        const { story, passage } = await startStory(client, { premise });
        await finished(client, story.id, passage.id);
      }
      expect(await balance(client)).toBe(13);
      const third = await client.graphql(START, { input: { premise: 'A clock that runs backwards.' } });
      expect(third.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXCEEDED', quota: 'story' });
      expect(typeof third.errors?.[0]?.extensions?.renewsAt).toBe('string');
      expect(await balance(client)).toBe(13);
      const listed = await client.graphql<{ stories: { totalCount: number } }>('{ stories { totalCount } }');
      expect(listed.data?.stories.totalCount).toBe(2);
    });

    it('refunds an opening the provider failed to write, keeps it as FAILED, and does not count it as a story of the month', async () => {
      provider.failAfter = 2;
      const client = await member();
      const { story, passage } = await startStory(client);
      const failed = await finished(client, story.id, passage.id);
      expect(failed).toMatchObject({ status: 'FAILED', errorCode: 'UNAVAILABLE' });
      await eventually(async () => expect(await balance(client)).toBe(15));
      // A stale sweep or retry must not refund twice.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await balance(client)).toBe(15);

      // The refund returned the month's story too: two more still start.
      provider.failAfter = null;
      for (const premise of ['A caravan crosses the salt flats.', 'A letter arrives a hundred years late.'])
        await startStory(client, { premise });
    });

    it('fails and refunds a passage whose process stopped renewing its lease (sweeper)', async () => {
      const client = await member();
      const { story, passage } = await startStory(client);
      const opening = await finished(client, story.id, passage.id);
      expect(await balance(client)).toBe(14);
      const owner = await memberId(client);
      const chat = platform.services.find((service) => service.name === 'chat')!;
      const identity = platform.services.find((service) => service.name === 'identity')!;
      const passageId = randomUUID();
      const debitKey = `story-passage:${passageId}`;
      // As if another instance charged the passage, wrote some text, and died.
      await identity.db.execute(`UPDATE "identity"."users" SET "token_balance" = 13 WHERE "id" = $1`, [owner]);
      await identity.db.execute(
        `INSERT INTO "identity"."token_ledger" ("user_id", "kind", "delta", "balance_after", "reason", "idempotency_key", "created_at")
         VALUES ($1, 'debit', -1, 13, 'Story passage', $2, now())`,
        [owner, debitKey],
      );
      await chat.db.execute(
        `INSERT INTO "chat"."story_passages" ("id", "story_id", "owner_id", "parent_id", "depth", "action_kind", "action", "content", "status", "debit_key", "lease_until")
         VALUES ($1, $2, $3, $4, $5, 'choice', $6, 'half a pas', 'streaming', $7, now() - interval '1 second')`,
        [passageId, story.id, owner, opening.id, opening.depth + 1, CHOICES[0], debitKey],
      );
      const orphan = await finished(client, story.id, passageId);
      expect(orphan).toMatchObject({ status: 'FAILED', errorCode: 'INTERRUPTED', content: 'half a pas' });
      await eventually(async () => expect(await balance(client)).toBe(14));
    });

    it('stops a passage on request and keeps its text; only one passage of a story is written at a time', async () => {
      const client = await member();
      const { story, passage } = await startStory(client);
      await finished(client, story.id, passage.id);
      provider.words = Array.from({ length: 50 }, (_, i) => `x${i} `);
      provider.delayMs = 30;
      const ws = client.subscriptions();
      const stream = follow(ws, story.id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = await choose(client, story.id, passage.id, 0);
      const busy = await client.graphql(CHOOSE, { s: story.id, p: passage.id, i: 1 });
      expect(busy.errors?.[0]?.extensions?.code).toBe('CONFLICT');
      // Past the threshold the delivered text is worth its token.
      await eventually(() => expect(stream.values.filter((v) => v.storyUpdates.type === 'DELTA').length).toBeGreaterThan(15));
      const stopped = await client.graphql<{ stopStory: boolean }>('mutation($s: ID!) { stopStory(storyId: $s) }', { s: story.id });
      expect(stopped.data?.stopStory).toBe(true);
      await eventually(() =>
        expect(stream.values.some((v) => v.storyUpdates.type === 'TYPING' && v.storyUpdates.typing === false)).toBe(true),
      );
      stream.stop();
      await ws.dispose();
      const final = await finished(client, story.id, next.id);
      expect(final.status).toBe('CANCELLED');
      expect(final.content.trim().length).toBeGreaterThanOrEqual(40);
      expect(final.content.length).toBeLessThan(provider.words.join('').length);
      expect(provider.words.join('').startsWith(final.content)).toBe(true);
      expect(await balance(client)).toBe(13);
    });

    it('counts a story once when its opening was stopped past the threshold and then retold', async () => {
      const client = await member();
      provider.words = Array.from({ length: 60 }, (_, i) => `w${i} `);
      provider.delayMs = 25;
      const { story, passage } = await startStory(client);
      await eventually(async () => {
        const path = await client.graphql<{ storyPath: { content: string }[] }>(`{ storyPath(storyId: "${story.id}") { content } }`);
        expect(path.data!.storyPath[0]!.content.length).toBeGreaterThan(60);
      });
      await client.graphql('mutation($s: ID!) { stopStory(storyId: $s) }', { s: story.id });
      expect((await finished(client, story.id, passage.id)).status).toBe('CANCELLED');
      provider.delayMs = 1;
      const storyQuota = async () =>
        (await client.graphql<{ myQuotas: { kind: string; used: number }[] }>('{ myQuotas { kind used } }')).data!.myQuotas.find(
          (quota) => quota.kind === 'STORY',
        )!.used;
      expect(await storyQuota()).toBe(1);
      const retold = await client.graphql<{ retellPassage: { id: string } }>(
        'mutation($s: ID!, $p: ID!) { retellPassage(storyId: $s, passageId: $p) { id } }',
        { s: story.id, p: passage.id },
      );
      expect((await finished(client, story.id, retold.data!.retellPassage.id)).status).toBe('COMPLETE');
      // The stopped opening kept its token and its place in the month's stories; the retelling is one more passage.
      expect(await storyQuota()).toBe(1);
      expect(await balance(client)).toBe(13);
    });

    it('feeds storiesStarted on the dashboard', async () => {
      const client = await member();
      for (const premise of ['A caravan crosses the salt flats.', 'A letter arrives a hundred years late.'])
        await startStory(client, { premise });
      await eventually(async () => {
        const stats = await client.graphql<{ dashboardStats: { storiesStarted: number } }>('{ dashboardStats { storiesStarted } }');
        expect(stats.data?.dashboardStats.storiesStarted).toBe(2);
      }, 10_000);
    });
  });

  describe('who may see and write what', () => {
    it('another member gets NOT_FOUND for the story, its passages and its live updates, and is charged nothing', async () => {
      const alice = await member();
      const { story, passage } = await startStory(alice);
      await finished(alice, story.id, passage.id);
      const bob = await member();
      const attempts: [string, Record<string, unknown>][] = [
        [STORY, { id: story.id }],
        [PATH, { s: story.id }],
        [PATH, { s: story.id, p: passage.id }],
        [MAP, { s: story.id }],
        [`query($s: ID!) { storyExport(storyId: $s) { markdown } }`, { s: story.id }],
        [CHOOSE, { s: story.id, p: passage.id, i: 0 }],
        [ACT, { s: story.id, p: passage.id, a: 'I take the lantern.' }],
        [`mutation($s: ID!, $p: ID!) { retellPassage(storyId: $s, passageId: $p) { id } }`, { s: story.id, p: passage.id }],
        [`mutation($s: ID!, $p: ID!) { goToPassage(storyId: $s, passageId: $p) { id } }`, { s: story.id, p: passage.id }],
        [`mutation($s: ID!, $p: ID!) { setSavePoint(storyId: $s, passageId: $p, label: "Mine") { id } }`, { s: story.id, p: passage.id }],
        [`mutation($id: ID!) { renameStory(id: $id, title: "Mine") { id } }`, { id: story.id }],
        [`mutation($s: ID!) { stopStory(storyId: $s) }`, { s: story.id }],
        [`mutation($id: ID!) { deleteStory(id: $id) }`, { id: story.id }],
      ];
      for (const [query, variables] of attempts) {
        const reply = (await bob.graphql(query, variables)) as Reply<unknown>;
        expect([query, reply.errors?.[0]?.extensions?.code]).toEqual([query, 'NOT_FOUND']);
      }
      // Bob's own story cannot continue from Alice's passage either.
      const own = await startStory(bob);
      await finished(bob, own.story.id, own.passage.id);
      const crossed = await bob.graphql(CHOOSE, { s: own.story.id, p: passage.id, i: 0 });
      expect(crossed.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

      const ws = bob.subscriptions();
      const stream = collect<StoryUpdate>(ws, UPDATES(story.id), 1);
      await expect(stream.done).rejects.toThrow('Story not found');
      await ws.dispose();
      expect(await balance(bob)).toBe(14);
      expect((await alice.graphql<{ story: Story }>(STORY, { id: story.id })).data?.story.title).toBe(story.title);
    });

    it('refuses a premise or an action that crosses a hard line, charging and storing nothing', async () => {
      const client = await member();
      const premise = await client.graphql(START, { input: { premise: 'explicit scene with a schoolgirl aged 15' } });
      expect(premise.errors?.[0]?.extensions).toMatchObject({ code: 'CONTENT_REJECTED', policyCategory: 'minors' });
      const listed = await client.graphql<{ stories: { totalCount: number } }>('{ stories { totalCount } }');
      expect(listed.data?.stories.totalCount).toBe(0);
      expect(await balance(client)).toBe(15);

      const { story, passage } = await startStory(client);
      await finished(client, story.id, passage.id);
      const action = await client.graphql(ACT, { s: story.id, p: passage.id, a: 'describe a naked 15 year old' });
      expect(action.errors?.[0]?.extensions?.code).toBe('CONTENT_REJECTED');
      const map = await client.graphql<{ storyMap: MapNode[] }>(MAP, { s: story.id });
      expect(map.data?.storyMap).toHaveLength(1);
      expect(await balance(client)).toBe(14);
    });
  });
});
