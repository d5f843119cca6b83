import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { FREE_MONTHLY_TOKEN_ALLOWANCE } from '@app/schema';
import { embeddedTarget } from '../../services/kit/test/test-infra';
import { TestClient, collect, registration } from './http-client';

jest.setTimeout(60_000);

const UPDATE = 'mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { id firstName lastName email profileImageUrl } }';
const ACHIEVEMENTS = '{ myAchievements { key threshold progress earned earnedAt } }';

interface AchievementView {
  key: string;
  threshold: number;
  progress: number;
  earned: boolean;
  earnedAt: string | null;
}

describe('profile, achievements and plan (embedded)', () => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const created = await embeddedTarget.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      // A long session cache: the profile change must show at once all the same.
      gateway: { port: 0, sessionCacheMs: 60_000 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
    });
  });
  afterAll(async () => {
    await platform.stop();
    await cleanup();
  });

  async function member(overrides: Record<string, unknown> = {}): Promise<TestClient> {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration(overrides) });
    expect(response.status).toBe(201);
    return client;
  }

  it('updates names through GraphQL and REST (trimmed, empty cleared, left out kept) and the session shows them at once', async () => {
    const client = await member({ firstName: 'Ada', lastName: 'Lovelace' });
    // Cached now: the next reads would be served from the session cache.
    expect((await client.graphql<{ me: { firstName: string } }>('{ me { firstName } }')).data?.me.firstName).toBe('Ada');

    const renamed = await client.graphql<{ updateProfile: Record<string, unknown> }>(UPDATE, { input: { firstName: '  Grace ' } });
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data?.updateProfile).toMatchObject({ firstName: 'Grace', lastName: 'Lovelace', profileImageUrl: null });
    expect((await client.graphql<{ me: { firstName: string } }>('{ me { firstName } }')).data?.me.firstName).toBe('Grace');

    // REST: an empty name is cleared; the picture cannot be set through this route.
    const rest = await client.fetch('/api/profile', {
      method: 'PUT',
      json: { lastName: '   ', profileImageUrl: 'https://evil.example/x.png' },
    });
    expect(rest.status).toBe(200);
    const user = (await rest.json()) as Record<string, unknown>;
    expect(user).toMatchObject({ firstName: 'Grace', lastName: null, profileImageUrl: null, tokens: expect.any(Number) });
    expect(await (await client.fetch('/api/user')).json()).toMatchObject({ firstName: 'Grace', lastName: null });
  });

  it('answers bad profile input clearly, and visitors with 401', async () => {
    const client = await member();
    const long = await client.graphql(UPDATE, { input: { firstName: 'x'.repeat(101) } });
    expect(long.errors?.[0]).toMatchObject({
      message: 'Must be at most 100 characters',
      extensions: { code: 'VALIDATION_FAILED', fieldErrors: { firstName: 'Must be at most 100 characters' } },
    });
    const notText = await client.fetch('/api/profile', { method: 'PUT', json: { lastName: 42 } });
    expect(notText.status).toBe(400);
    expect(await notText.json()).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: { lastName: 'Must be text' } });
    const notJson = await client.fetch('/api/profile', { method: 'PUT', body: 'firstName=x', headers: { 'content-type': 'text/plain' } });
    expect(notJson.status).toBe(415);

    const visitor = new TestClient(platform.url);
    expect((await visitor.fetch('/api/profile', { method: 'PUT', json: { firstName: 'x' } })).status).toBe(401);
    expect((await visitor.graphql(UPDATE, { input: { firstName: 'x' } })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await visitor.fetch('/api/achievements')).status).toBe(401);
    expect((await visitor.fetch('/api/plan')).status).toBe(401);
  });

  it('derives achievements from activity, announces them live, and keeps them', async () => {
    const client = await member();
    const before = await client.graphql<{ myAchievements: AchievementView[] }>(ACHIEVEMENTS);
    expect(before.data?.myAchievements).toEqual([
      { key: 'FIRST_CREATION', threshold: 1, progress: 0, earned: false, earnedAt: null },
      { key: 'CONVERSATION_STARTER', threshold: 1, progress: 0, earned: false, earnedAt: null },
      { key: 'CHARACTER_CREATOR', threshold: 1, progress: 0, earned: false, earnedAt: null },
      { key: 'POPULAR_CREATOR', threshold: 100, progress: 0, earned: false, earnedAt: null },
      { key: 'PRODUCTIVE_CREATOR', threshold: 50, progress: 0, earned: false, earnedAt: null },
      { key: 'SOCIAL_BUTTERFLY', threshold: 10, progress: 0, earned: false, earnedAt: null },
    ]);

    const ws = client.subscriptions();
    const live = collect<{ achievementEarned: AchievementView }>(
      ws,
      'subscription { achievementEarned { key progress earned earnedAt } }',
      2,
    );
    // Another member's achievements never reach this socket.
    const bystander = await member();
    await new Promise((resolve) => setTimeout(resolve, 300));

    const image = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'a lighthouse at dusk' } });
    expect(image.status).toBe(201);
    const conversation = (await (await client.fetch('/api/conversations', { method: 'POST', json: { title: 'Hi' } })).json()) as {
      id: string;
    };
    const sent = await client.fetch(`/api/chat/${conversation.id}`, { method: 'POST', json: { content: 'Hello there' } });
    expect(sent.status).toBe(200);
    const bystanderConversation = (await (await bystander.fetch('/api/conversations', { method: 'POST', json: {} })).json()) as {
      id: string;
    };
    await bystander.fetch(`/api/chat/${bystanderConversation.id}`, { method: 'POST', json: { content: 'Me too' } });

    const heard = await live.done;
    expect(heard.map(({ achievementEarned }) => achievementEarned.key).sort()).toEqual(['CONVERSATION_STARTER', 'FIRST_CREATION']);
    for (const { achievementEarned } of heard)
      expect(achievementEarned).toMatchObject({ progress: 1, earned: true, earnedAt: expect.any(String) });

    const after = (await client.graphql<{ myAchievements: AchievementView[] }>(ACHIEVEMENTS)).data!.myAchievements;
    expect(after.filter((achievement) => achievement.earned).map((achievement) => achievement.key)).toEqual([
      'FIRST_CREATION',
      'CONVERSATION_STARTER',
    ]);
    expect(after.find((achievement) => achievement.key === 'PRODUCTIVE_CREATOR')).toMatchObject({ progress: 1, earned: false });
    // REST speaks the contract's lower-case keys.
    const rest = (await (await client.fetch('/api/achievements')).json()) as (AchievementView & { key: string })[];
    expect(rest.map((achievement) => [achievement.key, achievement.earned])).toEqual([
      ['first_creation', true],
      ['conversation_starter', true],
      ['character_creator', false],
      ['popular_creator', false],
      ['productive_creator', false],
      ['social_butterfly', false],
    ]);
    // Nothing more arrives: each achievement is announced once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(live.values).toHaveLength(2);
    live.stop();
    await ws.dispose();
  });

  it('gives the plan: free, the allowance, the balance, the renewal and each quota used this month', async () => {
    const client = await member();
    await client.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'a quiet harbour' } });
    const plan = await client.graphql<{
      myPlan: {
        plan: string;
        monthlyTokenAllowance: number;
        balance: number;
        renewsAt: string;
        quotas: { kind: string; used: number; limit: number }[];
      };
    }>('{ myPlan { plan monthlyTokenAllowance balance renewsAt quotas { kind used limit } } }');
    expect(plan.errors).toBeUndefined();
    const now = new Date();
    expect(plan.data?.myPlan).toEqual({
      plan: 'FREE',
      monthlyTokenAllowance: FREE_MONTHLY_TOKEN_ALLOWANCE,
      balance: expect.any(Number),
      renewsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      quotas: [
        { kind: 'IMAGE', used: 1, limit: 3 },
        { kind: 'CHAT', used: 0, limit: 10 },
        { kind: 'CHARACTER', used: 0, limit: 2 },
        { kind: 'STORY', used: 0, limit: 2 },
      ],
    });
    const me = await (await client.fetch('/api/user')).json();
    expect(plan.data?.myPlan.balance).toBe((me as { tokens: number }).tokens);
    const rest = (await (await client.fetch('/api/plan')).json()) as Record<string, unknown>;
    expect(rest).toMatchObject({ plan: 'free', monthlyTokenAllowance: FREE_MONTHLY_TOKEN_ALLOWANCE, quotas: expect.any(Array) });
    expect((rest.quotas as { kind: string }[]).map((quota) => quota.kind)).toEqual(['image', 'chat', 'character', 'story']);
  });
});
