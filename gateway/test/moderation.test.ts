import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type EventEnvelope, identityRpc } from '@app/schema';
import { type TestTarget, eventually, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';

jest.setTimeout(300_000);

interface GraphQLReply<T = Record<string, unknown>> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; policyCategory?: string; fieldErrors?: Record<string, string> } }[];
}
interface RestImage {
  id: string;
  rating: string;
  moderationState: string;
  renditions: { url: string }[];
}

const PUBLISH =
  'mutation($id: ID!, $rating: ContentRating) { setImageVisibility(id: $id, isPublic: true, rating: $rating) { id rating isPublic } }';
const PUBLIC_IMAGES = '{ publicImages(first: 100) { nodes { id rating } } }';
const REPORT = 'mutation($input: ReportInput!) { reportContent(input: $input) { caseId } }';
const QUEUE = `{ moderationQueue(first: 100) { openCount nodes { id kind reason details targetKind targetId targetOwnerId reference deadlineAt resolveBy
  snapshot { text state } current { state rating imageUrl } } } }`;
const MODERATE = 'mutation($input: ModerationActionInput!) { moderate(input: $input) { id action reason actorLabel } }';
const AUDIT = '{ moderationAuditLog(first: 50) { nodes { action targetId reason actorLabel } } }';
const NOTICES = '{ myNotices { id kind targetId reason label } }';
const TAKEDOWN =
  'mutation($input: TakedownInput!) { requestTakedown(input: $input) { reference removalDeadline resolutionDeadline items } }';

/** Reports, the queue, moderators' actions, takedowns and suspensions: through GraphQL and `/api`, as members, moderators and visitors see them. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('moderation on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let owner: TestClient;
  let reporter: TestClient;
  let moderator: TestClient;
  let visitor: TestClient;
  let ownerId: string;
  let ownerEmail: string;
  const events: EventEnvelope[] = [];

  const gql = <T = Record<string, unknown>>(client: TestClient, query: string, variables?: Record<string, unknown>) =>
    client.graphql(query, variables) as Promise<GraphQLReply<T>>;
  const code = (reply: GraphQLReply) => reply.errors?.[0]?.extensions?.code;

  async function signUp(client: TestClient) {
    const input = registration();
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: input });
    expect(response.status).toBe(201);
    return { id: ((await response.json()) as { id: string }).id, email: input.email, password: input.password };
  }
  async function generate(client: TestClient, prompt: string): Promise<RestImage> {
    const response = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt } });
    expect(response.status).toBe(201);
    return (await response.json()) as RestImage;
  }
  async function publicImageIds(client: TestClient) {
    const reply = await gql<{ publicImages: { nodes: { id: string }[] } }>(client, PUBLIC_IMAGES);
    return reply.data!.publicImages.nodes.map((node) => node.id);
  }

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0, generationsPerAddressPerMinute: 1_000_000 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_GENERATIONS_PER_MINUTE: '1000000', SIGNUP_TOKEN_GRANT: '50' },
    });
    await platform.observe({ subjects: ['evt.identity.>', 'evt.media.content.refused'], deliver: 'new' }, async (event) => {
      events.push(event);
    });
    reporter = new TestClient(platform.url);
    moderator = new TestClient(platform.url);
    visitor = new TestClient(platform.url);
    await signUp(reporter);
    const mod = await signUp(moderator);
    // As `npm run admin -- grant-role` would (actor null: the command line).
    await platform.bus.request(identityRpc.grantRole, { email: mod.email, role: 'moderator', actorId: null, reason: 'test moderator' });
    await moderator.fetch('/api/auth/login', { method: 'POST', json: { email: mod.email, password: mod.password } });
  });
  // A new owner per test: the free plan allows 3 images a month.
  beforeEach(async () => {
    owner = new TestClient(platform.url);
    const ownerAccount = await signUp(owner);
    ownerId = ownerAccount.id;
    ownerEmail = ownerAccount.email;
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });

  it('publishing without a rating labels an image explicit; visitors get safe pictures only; members hide what they choose', async () => {
    const explicit = await generate(owner, 'A velvet armchair by the window');
    const unrated = await gql<{ setImageVisibility: { rating: string } }>(owner, PUBLISH, { id: explicit.id });
    expect(unrated.data?.setImageVisibility.rating).toBe('EXPLICIT');
    const safe = await generate(owner, 'A lighthouse on a cliff at dawn');
    const rest = await owner.fetch(`/api/images/${safe.id}/visibility`, { method: 'PUT', json: { isPublic: true, rating: 'safe' } });
    expect(((await rest.json()) as RestImage).rating).toBe('safe');
    const badRating = await owner.fetch(`/api/images/${safe.id}/visibility`, { method: 'PUT', json: { isPublic: true, rating: 'spicy' } });
    expect(badRating.status).toBe(400);

    expect((await visitor.fetch(`/api/media/images/${safe.id}/w256.webp`)).status).toBe(200);
    expect((await visitor.fetch(`/api/media/images/${explicit.id}/w256.webp`)).status).toBe(404);

    // Blur is the default: the image is listed (the client blurs it); hiding leaves it out.
    expect(await publicImageIds(reporter)).toEqual(expect.arrayContaining([explicit.id, safe.id]));
    const hide = await gql(
      reporter,
      'mutation { updateRatingPreferences(input: { suggestive: BLUR, explicit: HIDE }) { ratingPreferences { explicit } } }',
    );
    expect(hide.data).toEqual({ updateRatingPreferences: { ratingPreferences: { explicit: 'HIDE' } } });
    const ids = await publicImageIds(reporter);
    expect(ids).toContain(safe.id);
    expect(ids).not.toContain(explicit.id);
    await gql(reporter, 'mutation { updateRatingPreferences(input: { suggestive: SHOW, explicit: SHOW }) { id } }');
  });

  it('a member reports a public image; a moderator removes it; it is gone, blocked by hash, the owner is told and the log shows it', async () => {
    const prompt = 'A harbour at night with bright lanterns';
    const image = await generate(owner, prompt);
    await gql(owner, PUBLISH, { id: image.id, rating: 'SAFE' });

    const own = await gql(owner, REPORT, { input: { targetKind: 'IMAGE', targetId: image.id, reason: 'SPAM' } });
    expect(own.errors?.[0]?.message).toBe("You can't report your own content.");
    const viaRest = await reporter.fetch('/api/reports', {
      method: 'POST',
      json: { targetKind: 'image', targetId: image.id, reason: 'minor', details: 'Looks like a child' },
    });
    expect(viaRest.status).toBe(201);
    const { caseId } = (await viaRest.json()) as { caseId: string };
    expect(
      (await visitor.fetch('/api/reports', { method: 'POST', json: { targetKind: 'image', targetId: image.id, reason: 'spam' } })).status,
    ).toBe(401);

    expect(code(await gql(reporter, QUEUE))).toBe('FORBIDDEN');
    const queue = await gql<{ moderationQueue: { nodes: Array<Record<string, unknown> & { current: { imageUrl: string } }> } }>(
      moderator,
      QUEUE,
    );
    const filed = queue.data!.moderationQueue.nodes.find((node) => node.id === caseId)!;
    expect(filed).toMatchObject({
      kind: 'REPORT',
      reason: 'MINOR',
      details: 'Looks like a child',
      targetKind: 'IMAGE',
      targetOwnerId: ownerId,
    });
    expect(filed.current).toMatchObject({ state: 'VISIBLE', rating: 'SAFE' });
    // The picture in context: moderators only.
    expect((await moderator.fetch(filed.current.imageUrl)).status).toBe(200);
    expect((await reporter.fetch(filed.current.imageUrl)).status).toBe(403);

    const noReason = await gql(moderator, MODERATE, {
      input: { action: 'REMOVE', targetKind: 'IMAGE', targetId: image.id, caseId, reason: '' },
    });
    expect(noReason.errors?.[0]?.extensions?.fieldErrors?.reason).toBe('Please give a reason.');
    const removed = await gql<{ moderate: { action: string } }>(moderator, MODERATE, {
      input: { action: 'REMOVE', targetKind: 'IMAGE', targetId: image.id, caseId, reason: 'Sexualised minor' },
    });
    expect(removed.data?.moderate).toMatchObject({ action: 'REMOVE', reason: 'Sexualised minor' });

    await eventually(async () => expect(await publicImageIds(reporter)).not.toContain(image.id), 15_000);
    expect((await owner.fetch(`/api/images/${image.id}`)).status).toBe(404);
    expect((await visitor.fetch(`/api/media/images/${image.id}/w256.webp`)).status).toBe(404);
    const notices = await gql<{ myNotices: { kind: string; targetId: string; reason: string }[] }>(owner, NOTICES);
    expect(notices.data?.myNotices).toEqual([
      expect.objectContaining({ kind: 'CONTENT_REMOVED', targetId: image.id, reason: 'Sexualised minor' }),
    ]);
    const restNotices = (await (await owner.fetch('/api/notices')).json()) as { id: string }[];
    expect(restNotices).toHaveLength(1);
    const audit = await gql<{ moderationAuditLog: { nodes: { action: string; targetId: string }[] } }>(moderator, AUDIT);
    expect(audit.data?.moderationAuditLog.nodes[0]).toMatchObject({ action: 'REMOVE', targetId: image.id });
    const open = await gql<{ moderationQueue: { nodes: { id: string }[] } }>(moderator, QUEUE);
    expect(open.data?.moderationQueue.nodes.map((node) => node.id)).not.toContain(caseId);

    // The demo renderer draws the same picture for the same prompt: a blocked picture is refused, and refunded.
    const before = ((await (await owner.fetch('/api/user')).json()) as { tokens: number }).tokens;
    const again = await owner.fetch('/api/generate/image', { method: 'POST', json: { prompt } });
    expect(again.status).toBe(422);
    expect(((await again.json()) as { code: string }).code).toBe('CONTENT_REJECTED');
    await eventually(async () => expect(((await (await owner.fetch('/api/user')).json()) as { tokens: number }).tokens).toBe(before));

    await eventually(() => {
      expect(
        events.some((event) => event.type === 'evt.identity.report.filed' && (event.data as { caseId: string }).caseId === caseId),
      ).toBe(true);
      expect(
        events.some(
          (event) => event.type === 'evt.identity.moderation.actioned' && (event.data as { targetId: string }).targetId === image.id,
        ),
      ).toBe(true);
      expect(
        events.some((event) => event.type === 'evt.media.content.refused' && (event.data as { reason: string }).reason === 'blocked_hash'),
      ).toBe(true);
    });

    // Restoring brings it back and lifts the block.
    await gql(moderator, MODERATE, {
      input: { action: 'RESTORE', targetKind: 'IMAGE', targetId: image.id, reason: 'Appeal: an adult model' },
    });
    await eventually(async () => expect(await publicImageIds(reporter)).toContain(image.id), 15_000);
    expect((await owner.fetch('/api/generate/image', { method: 'POST', json: { prompt } })).status).toBe(201);
  });

  it('hiding keeps an image for its owner only; a rating change sticks over the owner’s choice', async () => {
    const image = await generate(owner, 'A quiet forest path in autumn');
    await gql(owner, PUBLISH, { id: image.id, rating: 'SAFE' });
    await gql(moderator, MODERATE, { input: { action: 'HIDE', targetKind: 'IMAGE', targetId: image.id, reason: 'Under review' } });
    await eventually(async () => expect(await publicImageIds(reporter)).not.toContain(image.id), 15_000);
    const mine = (await (await owner.fetch(`/api/images/${image.id}`)).json()) as RestImage;
    expect(mine.moderationState).toBe('hidden');
    await gql(moderator, MODERATE, { input: { action: 'RESTORE', targetKind: 'IMAGE', targetId: image.id, reason: 'Fine' } });
    await gql(moderator, MODERATE, {
      input: { action: 'CHANGE_RATING', targetKind: 'IMAGE', targetId: image.id, reason: 'Nudity', rating: 'EXPLICIT' },
    });
    await eventually(async () => {
      const reply = await gql<{ image: { rating: string } }>(owner, '{ image(id: "' + image.id + '") { rating } }');
      expect(reply.data?.image.rating).toBe('EXPLICIT');
    }, 15_000);
    const republished = await gql<{ setImageVisibility: { rating: string } }>(owner, PUBLISH, { id: image.id, rating: 'SAFE' });
    expect(republished.data?.setImageVisibility.rating).toBe('EXPLICIT');
  });

  it('reports characters and AI replies; a reply can be reported only in one’s own conversation', async () => {
    const created = await gql<{ createCharacter: { id: string; rating: string } }>(
      owner,
      'mutation { createCharacter(input: { name: "Captain Vale", description: "A sea captain", isPublic: true, rating: SUGGESTIVE }) { id rating } }',
    );
    const characterId = created.data!.createCharacter.id;
    expect(created.data!.createCharacter.rating).toBe('SUGGESTIVE');
    const reported = await gql<{ reportContent: { caseId: string } }>(reporter, REPORT, {
      input: { targetKind: 'CHARACTER', targetId: characterId, reason: 'REAL_PERSON', details: 'A real actor' },
    });
    expect(reported.data?.reportContent.caseId).toBeTruthy();

    const conversation = (await (await owner.fetch('/api/conversations', { method: 'POST', json: { title: 'Sea' } })).json()) as {
      id: string;
    };
    const sent = (await (
      await owner.fetch(`/api/chat/${conversation.id}`, { method: 'POST', json: { content: 'Tell me about the sea' } })
    ).json()) as {
      assistantMessage?: { id: string };
    };
    const messages = (await (await owner.fetch(`/api/conversations/${conversation.id}/messages`)).json()) as { id: string; role: string }[];
    const replyId = sent.assistantMessage?.id ?? messages.find((message) => message.role === 'assistant')!.id;
    const foreign = await gql(reporter, REPORT, { input: { targetKind: 'REPLY', targetId: replyId, reason: 'OTHER' } });
    expect(code(foreign)).toBe('NOT_FOUND');
    const mine = await gql<{ reportContent: { caseId: string } }>(owner, REPORT, {
      input: { targetKind: 'REPLY', targetId: replyId, reason: 'OTHER', details: 'Odd' },
    });
    expect(mine.data?.reportContent.caseId).toBeTruthy();
    const queue = await gql<{ moderationQueue: { nodes: { targetId: string; snapshot: { text: string } }[] } }>(moderator, QUEUE);
    expect(queue.data?.moderationQueue.nodes.find((node) => node.targetId === replyId)?.snapshot.text).toBeTruthy();
  });

  it('a signed-out visitor files a takedown through REST and GraphQL; it waits in the queue with its 48-hour deadline', async () => {
    const image = await generate(owner, 'A portrait in soft light');
    await gql(owner, PUBLISH, { id: image.id, rating: 'SAFE' });
    const fields = {
      kind: 'intimate_image',
      content: `${platform.url}/gallery?image=${image.id}`,
      statement: 'This is me and I never agreed to it being shared.',
      requester: 'depicted_person',
      name: 'Jane Roe',
      email: 'jane@example.com',
      signature: 'Jane Roe',
      goodFaith: true,
    };
    const missing = await visitor.fetch('/api/takedown', { method: 'POST', json: { ...fields, goodFaith: false } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { fieldErrors: Record<string, string> }).fieldErrors.goodFaith).toBe(
      'Please confirm the good-faith statement.',
    );
    const nothing = await visitor.fetch('/api/takedown', {
      method: 'POST',
      json: { ...fields, content: 'https://elsewhere.example/picture' },
    });
    expect(nothing.status).toBe(400);

    const filed = await visitor.fetch('/api/takedown', { method: 'POST', json: fields });
    expect(filed.status).toBe(201);
    const receipt = (await filed.json()) as { reference: string; removalDeadline: string; resolutionDeadline: string; items: number };
    expect(receipt.items).toBe(1);
    const hours = (new Date(receipt.removalDeadline).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(47.9);
    expect(hours).toBeLessThanOrEqual(48);

    const viaGraphQL = await gql<{ requestTakedown: { reference: string } }>(visitor, TAKEDOWN, {
      input: {
        ...fields,
        kind: 'RIGHTS',
        requester: null,
        work: 'My own photograph',
        authorised: true,
        statement: 'Copied without a licence',
      },
    });
    expect(viaGraphQL.data?.requestTakedown.reference).toMatch(/^TD-/);

    const queue = await gql<{ moderationQueue: { nodes: { reference: string | null; deadlineAt: string; resolveBy: string }[] } }>(
      moderator,
      QUEUE,
    );
    expect(queue.data?.moderationQueue.nodes.find((node) => node.reference === receipt.reference)).toMatchObject({
      deadlineAt: receipt.removalDeadline,
      resolveBy: receipt.resolutionDeadline,
    });
    await eventually(() =>
      expect(
        events.some(
          (event) => event.type === 'evt.identity.takedown.filed' && (event.data as { reference: string }).reference === receipt.reference,
        ),
      ).toBe(true),
    );
  });

  it('suspension signs the member out everywhere, refuses sign-in, hides their public content; unsuspension undoes it', async () => {
    const character = await gql<{ createCharacter: { id: string } }>(
      owner,
      'mutation { createCharacter(input: { name: "Lighthouse Keeper", isPublic: true, rating: SAFE }) { id } }',
    );
    const characterId = character.data!.createCharacter.id;
    const listed = async () =>
      (
        (await gql<{ publicCharacters: { nodes: { id: string }[] } }>(reporter, '{ publicCharacters(first: 100) { nodes { id } } }')).data
          ?.publicCharacters.nodes ?? []
      ).map((c) => c.id);
    expect(await listed()).toContain(characterId);

    const suspended = await gql(moderator, MODERATE, {
      input: { action: 'SUSPEND', targetKind: 'MEMBER', targetId: ownerId, reason: 'Spam ring' },
    });
    expect(suspended.errors).toBeUndefined();
    await eventually(async () => expect((await owner.fetch('/api/user')).status).toBe(401));
    const signIn = await owner.fetch('/api/auth/login', {
      method: 'POST',
      json: { email: ownerEmail, password: 'a long enough password' },
    });
    expect(signIn.status).toBe(403);
    expect(await signIn.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    await eventually(async () => expect(await listed()).not.toContain(characterId), 15_000);

    await gql(moderator, MODERATE, { input: { action: 'UNSUSPEND', targetKind: 'MEMBER', targetId: ownerId, reason: 'Appeal upheld' } });
    expect(
      (await owner.fetch('/api/auth/login', { method: 'POST', json: { email: ownerEmail, password: 'a long enough password' } })).status,
    ).toBe(200);
    await eventually(async () => expect(await listed()).toContain(characterId), 15_000);
    await eventually(() =>
      expect(
        events.filter((event) => ['evt.identity.member.suspended', 'evt.identity.member.unsuspended'].includes(event.type)),
      ).toHaveLength(2),
    );
  });
});

/**
 * Character avatars and card exports hold to the viewer's ratings as the character itself does, with
 * AGE_VERIFICATION_REQUIRED on; moderators see any character's avatar, a removed one's too, through their own route.
 */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))(
  'character avatars and cards on %s',
  (_name, target) => {
    let platform: EmbeddedPlatform;
    let cleanup: () => Promise<void>;
    /** A Character Card with a picture: importing it gives the character an avatar. */
    let cardPng: Buffer<ArrayBuffer>;

    const EXPORT = 'query($id: ID!) { exportCharacterCard(id: $id, format: JSON_V2) { contentType } }';
    const allowed = { avatar: 200, card: 200, graphql: 'OK' };
    const refused = { avatar: 404, card: 404, graphql: 'NOT_FOUND' };

    beforeAll(async () => {
      const { readFile } = await import('node:fs/promises');
      cardPng = await readFile(`${__dirname}/../../services/chat/test/fixtures/cards/v2-chara.png`);
      const created = await target.create();
      cleanup = created.cleanup;
      platform = await startEmbedded({
        infra: created.infra,
        gateway: { port: 0 },
        // No session cache: a member verified in the database below is read as verified at once.
        env: { SIGNUPS_PER_IP_PER_HOUR: '1000', AGE_VERIFICATION_REQUIRED: 'true', SESSION_CACHE_MS: '0' },
      });
    });
    afterAll(async () => {
      await platform?.stop();
      await cleanup?.();
    });

    async function member() {
      const client = new TestClient(platform.url);
      const input = registration();
      const response = await client.fetch('/api/auth/register', { method: 'POST', json: input });
      expect(response.status).toBe(201);
      return { client, email: input.email, id: ((await response.json()) as { id: string }).id };
    }
    /** As an age-assurance provider would leave a member. */
    async function verify(userId: string) {
      const identity = platform.services.find((service) => service.name === 'identity')!;
      await identity.db.execute(
        `UPDATE "identity"."users" SET "age_assurance_level" = 'verified', "age_assurance_method" = 'test', "age_checked_at" = now() WHERE "id" = $1`,
        [userId],
      );
    }
    async function publishedCharacter(owner: TestClient, rating: string): Promise<string> {
      const imported = await owner.fetch('/api/characters/import', {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: cardPng,
      });
      expect(imported.status).toBe(201);
      const { id } = (await imported.json()) as { id: string };
      expect((await owner.fetch(`/api/characters/${id}`, { method: 'PUT', json: { isPublic: true, rating } })).status).toBe(200);
      return id;
    }
    /** What the avatar, the REST card export and the GraphQL one answer this client. */
    async function reads(client: TestClient, characterId: string) {
      const exported = (await client.graphql(EXPORT, { id: characterId })) as GraphQLReply;
      return {
        avatar: (await client.fetch(`/api/characters/${characterId}/avatar`)).status,
        card: (await client.fetch(`/api/characters/${characterId}/card?format=json_v2`)).status,
        graphql: exported.errors?.[0]?.extensions?.code ?? 'OK',
      };
    }

    it("avatars and card exports hold to the viewer's ratings; the owner always gets theirs", async () => {
      const owner = await member();
      const explicitId = await publishedCharacter(owner.client, 'explicit');
      const safeId = await publishedCharacter(owner.client, 'safe');
      const declared = await member();
      const verified = await member();
      await verify(verified.id);

      // The owner's age is only self-declared, yet their own explicit character is theirs to see.
      expect(await reads(owner.client, explicitId)).toEqual(allowed);
      // Browsers ask again each time (304 when unchanged), so a hidden avatar is not shown from a cache.
      const first = await owner.client.fetch(`/api/characters/${explicitId}/avatar`);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      const again = await owner.client.fetch(`/api/characters/${explicitId}/avatar`, {
        headers: { 'if-none-match': first.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
      expect(await reads(declared.client, explicitId)).toEqual(refused);
      expect(await reads(declared.client, safeId)).toEqual(allowed);
      expect(await reads(verified.client, explicitId)).toEqual(allowed);

      const hide = await verified.client.graphql(
        'mutation { updateRatingPreferences(input: { suggestive: SHOW, explicit: HIDE }) { id } }',
      );
      expect(hide.errors).toBeUndefined();
      expect(await reads(verified.client, explicitId)).toEqual(refused);
      expect(await reads(verified.client, safeId)).toEqual(allowed);

      expect(await reads(new TestClient(platform.url), safeId)).toEqual({ avatar: 401, card: 401, graphql: 'UNAUTHENTICATED' });

      // Nor can a chat be started with a character above what the member may see, through either edge.
      const start = async (client: TestClient, characterId: string) => ({
        graphql:
          (
            (await client.graphql('mutation($id: ID!) { createConversation(characterId: $id) { id } }', {
              id: characterId,
            })) as GraphQLReply
          ).errors?.[0]?.extensions?.code ?? 'OK',
        rest: (await client.fetch('/api/conversations', { method: 'POST', json: { characterId } })).status,
      });
      expect(await start(declared.client, explicitId)).toEqual({ graphql: 'NOT_FOUND', rest: 404 });
      expect(await start(declared.client, safeId)).toEqual({ graphql: 'OK', rest: 201 });
      expect(await start(owner.client, explicitId)).toEqual({ graphql: 'OK', rest: 201 });
    });

    it("moderators see a hidden or removed character's avatar through their route; nobody else does", async () => {
      const owner = await member();
      const characterId = await publishedCharacter(owner.client, 'safe');
      const other = await member();
      const moderator = await member();
      await platform.bus.request(identityRpc.grantRole, {
        email: moderator.email,
        role: 'moderator',
        actorId: null,
        reason: 'test moderator',
      });
      const moderatorsUrl = `/api/moderation/characters/${characterId}/avatar`;
      const avatarOf = async (client: TestClient) => (await client.fetch(`/api/characters/${characterId}/avatar`)).status;
      const moderate = async (action: string) => {
        const reply = (await moderator.client.graphql(MODERATE, {
          input: { action, targetKind: 'CHARACTER', targetId: characterId, reason: 'Under review' },
        })) as GraphQLReply;
        expect(reply.errors).toBeUndefined();
      };

      await moderate('HIDE');
      await eventually(async () => expect(await avatarOf(other.client)).toBe(404), 15_000);
      expect(await avatarOf(owner.client)).toBe(200);
      expect((await moderator.client.fetch(moderatorsUrl)).status).toBe(200);

      await moderate('REMOVE');
      await eventually(async () => expect(await avatarOf(owner.client)).toBe(404), 15_000);
      const seen = await moderator.client.fetch(moderatorsUrl);
      expect(seen.status).toBe(200);
      expect(seen.headers.get('content-type')).toBe('image/png');
      expect(seen.headers.get('cache-control')).toBe('no-store');
      expect(
        Buffer.from(await seen.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');

      expect((await owner.client.fetch(moderatorsUrl)).status).toBe(403);
      expect((await new TestClient(platform.url).fetch(moderatorsUrl)).status).toBe(401);
      expect((await moderator.client.fetch(`/api/moderation/characters/${crypto.randomUUID()}/avatar`)).status).toBe(404);
    });
  },
);

/**
 * Whose an image is (`isMine`), the rule a blocked picture is refused by (`policyCategory: blocked_hash`) on every
 * path, and the queue's reporter and owner suspension; closed sets are GraphQL enums.
 */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))(
  'image owners, blocked pictures and the queue on %s',
  (_name, target) => {
    let platform: EmbeddedPlatform;
    let cleanup: () => Promise<void>;
    let moderator: TestClient;

    const CASES = `{ moderationQueue(first: 100) { nodes { id kind reason targetId ownerSuspended reference reporter { id email name } } } }`;
    const IMAGE = 'query($id: ID!) { image(id: $id) { id isMine } }';
    const LISTS = '{ myImages(first: 100) { nodes { id isMine } } publicImages(first: 100) { nodes { id isMine } } }';
    const GENERATE = 'mutation($prompt: String!) { generateImage(input: { prompt: $prompt }) { id } }';
    const GENERATION = 'query($id: ID!) { generation(id: $id) { status errorCode policyCategory image { isMine } } }';
    const ACT = 'mutation($input: ModerationActionInput!) { moderate(input: $input) { action targetKind } }';
    interface QueueCase {
      id: string;
      kind: string;
      reason: string;
      targetId: string;
      ownerSuspended: boolean;
      reference: string | null;
      reporter: { id: string; email: string; name: string | null } | null;
    }

    const gql = <T = Record<string, unknown>>(client: TestClient, query: string, variables?: Record<string, unknown>) =>
      client.graphql(query, variables) as Promise<GraphQLReply<T>>;
    async function member(overrides: Record<string, unknown> = {}) {
      const client = new TestClient(platform.url);
      const input = registration(overrides);
      const response = await client.fetch('/api/auth/register', { method: 'POST', json: input });
      expect(response.status).toBe(201);
      return { client, email: input.email, id: ((await response.json()) as { id: string }).id };
    }
    async function generate(client: TestClient, prompt: string) {
      const response = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt } });
      expect(response.status).toBe(201);
      return (await response.json()) as RestImage & { isMine: boolean };
    }
    async function publish(client: TestClient, id: string) {
      expect((await gql(client, PUBLISH, { id, rating: 'SAFE' })).errors).toBeUndefined();
    }
    const queue = async () => (await gql<{ moderationQueue: { nodes: QueueCase[] } }>(moderator, CASES)).data!.moderationQueue.nodes;

    beforeAll(async () => {
      const created = await target.create();
      cleanup = created.cleanup;
      platform = await startEmbedded({
        infra: created.infra,
        gateway: { port: 0, generationsPerAddressPerMinute: 1_000_000 },
        env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_GENERATIONS_PER_MINUTE: '1000000', SIGNUP_TOKEN_GRANT: '50' },
      });
      const mod = await member();
      await platform.bus.request(identityRpc.grantRole, { email: mod.email, role: 'moderator', actorId: null, reason: 'test moderator' });
      moderator = mod.client;
    });
    afterAll(async () => {
      await platform?.stop();
      await cleanup?.();
    });

    it('an image says whether it is the viewer’s, in GraphQL and REST alike', async () => {
      const owner = await member();
      const other = await member();
      const image = await generate(owner.client, 'A red kite over the moor');
      expect(image.isMine).toBe(true);
      await publish(owner.client, image.id);

      expect((await gql<{ image: { isMine: boolean } }>(owner.client, IMAGE, { id: image.id })).data?.image.isMine).toBe(true);
      expect((await gql<{ image: { isMine: boolean } }>(other.client, IMAGE, { id: image.id })).data?.image.isMine).toBe(false);
      type Lists = { myImages: { nodes: { id: string; isMine: boolean }[] }; publicImages: { nodes: { id: string; isMine: boolean }[] } };
      const ownLists = (await gql<Lists>(owner.client, LISTS)).data!;
      expect(ownLists.myImages.nodes.every((node) => node.isMine)).toBe(true);
      expect(ownLists.publicImages.nodes.find((node) => node.id === image.id)?.isMine).toBe(true);
      const otherLists = (await gql<Lists>(other.client, LISTS)).data!;
      expect(otherLists.publicImages.nodes.find((node) => node.id === image.id)?.isMine).toBe(false);

      const restRead = async (client: TestClient, path: string) => (await (await client.fetch(path)).json()) as unknown;
      expect(await restRead(owner.client, `/api/images/${image.id}`)).toMatchObject({ id: image.id, isMine: true });
      expect(await restRead(other.client, `/api/images/${image.id}`)).toMatchObject({ id: image.id, isMine: false });
      const publicList = (await restRead(other.client, '/api/images/public')) as { id: string; isMine: boolean }[];
      expect(publicList.find((item) => item.id === image.id)?.isMine).toBe(false);
    });

    it('a blocked picture is refused with policyCategory blocked_hash: REST and GraphQL generation, and publishing a copy', async () => {
      const prompt = 'A copper kettle on a blue stove';
      const owner = await member();
      const copier = await member();
      const original = await generate(owner.client, prompt);
      await publish(owner.client, original.id);
      // The demo renderer draws the same picture for the same prompt: the copier holds an identical private copy.
      const copy = await generate(copier.client, prompt);
      const removed = await gql(moderator, ACT, {
        input: { action: 'REMOVE', targetKind: 'IMAGE', targetId: original.id, reason: 'Non-consensual' },
      });
      expect(removed.data).toEqual({ moderate: { action: 'REMOVE', targetKind: 'IMAGE' } });

      // Applied by media once it hears of the decision: the owner no longer sees the picture.
      await eventually(async () => expect((await owner.client.fetch(`/api/images/${original.id}`)).status).toBe(404), 15_000);

      // REST: the compatible generate call answers 422 with the rule, like any other refusal.
      const again = await owner.client.fetch('/api/generate/image', { method: 'POST', json: { prompt } });
      expect(again.status).toBe(422);
      expect(await again.json()).toEqual({
        code: 'CONTENT_REJECTED',
        message: 'This image matches content that was removed from the site.',
        policyCategory: 'blocked_hash',
      });

      // GraphQL: the job fails, naming the rule.
      const started = await gql<{ generateImage: { id: string } }>(owner.client, GENERATE, { prompt });
      const jobId = started.data!.generateImage.id;
      await eventually(async () => {
        const job = await gql<{ generation: Record<string, unknown> }>(owner.client, GENERATION, { id: jobId });
        expect(job.data?.generation).toEqual({
          status: 'FAILED',
          errorCode: 'CONTENT_REJECTED',
          policyCategory: 'blocked_hash',
          image: null,
        });
      }, 15_000);

      // Publishing the copy: GraphQL extensions and the REST body both carry the rule.
      const viaGraphQL = await gql(copier.client, PUBLISH, { id: copy.id, rating: 'SAFE' });
      expect(viaGraphQL.errors?.[0]?.extensions).toMatchObject({ code: 'CONTENT_REJECTED', policyCategory: 'blocked_hash' });
      const viaRest = await copier.client.fetch(`/api/images/${copy.id}/visibility`, {
        method: 'PUT',
        json: { isPublic: true, rating: 'safe' },
      });
      expect(viaRest.status).toBe(422);
      expect(await viaRest.json()).toMatchObject({ code: 'CONTENT_REJECTED', policyCategory: 'blocked_hash' });

      // A generation that succeeds names no rule.
      const fine = await gql<{ generateImage: { id: string } }>(copier.client, GENERATE, { prompt: 'A green door in a stone wall' });
      await eventually(async () => {
        const job = await gql<{ generation: Record<string, unknown> }>(copier.client, GENERATION, { id: fine.data!.generateImage.id });
        expect(job.data?.generation).toEqual({ status: 'DONE', errorCode: null, policyCategory: null, image: { isMine: true } });
      }, 15_000);
    });

    it('the queue names each report’s reporter (none for a takedown) and whether the owner is suspended now', async () => {
      const owner = await member();
      const reporter = await member({ firstName: 'Rita', lastName: 'Quill' });
      const image = await generate(owner.client, 'A paper boat on a canal');
      await publish(owner.client, image.id);
      const reported = await gql<{ reportContent: { caseId: string } }>(reporter.client, REPORT, {
        input: { targetKind: 'IMAGE', targetId: image.id, reason: 'SPAM' },
      });
      const caseId = reported.data!.reportContent.caseId;
      const takedown = await new TestClient(platform.url).fetch('/api/takedown', {
        method: 'POST',
        json: {
          kind: 'intimate_image',
          content: `${platform.url}/gallery?image=${image.id}`,
          statement: 'This is me and I never agreed to it being shared.',
          requester: 'depicted_person',
          name: 'Jane Roe',
          email: 'jane@example.com',
          signature: 'Jane Roe',
          goodFaith: true,
        },
      });
      expect(takedown.status).toBe(201);
      const { reference } = (await takedown.json()) as { reference: string };

      const cases = await queue();
      expect(cases.find((item) => item.id === caseId)).toEqual({
        id: caseId,
        kind: 'REPORT',
        reason: 'SPAM',
        targetId: image.id,
        ownerSuspended: false,
        reference: null,
        reporter: { id: reporter.id, email: reporter.email, name: 'Rita Quill' },
      });
      expect(cases.find((item) => item.reference === reference)).toMatchObject({
        kind: 'TAKEDOWN',
        reason: 'INTIMATE_IMAGE',
        reporter: null,
        ownerSuspended: false,
      });

      const onImage = async () => (await queue()).filter((item) => item.targetId === image.id).map((item) => item.ownerSuspended);
      const suspended = await gql(moderator, ACT, {
        input: { action: 'SUSPEND', targetKind: 'MEMBER', targetId: owner.id, reason: 'Spam ring' },
      });
      expect(suspended.data).toEqual({ moderate: { action: 'SUSPEND', targetKind: 'MEMBER' } });
      expect(await onImage()).toEqual([true, true]);
      await gql(moderator, ACT, { input: { action: 'UNSUSPEND', targetKind: 'MEMBER', targetId: owner.id, reason: 'Appeal upheld' } });
      expect(await onImage()).toEqual([false, false]);
      const audit = await gql<{ moderationAuditLog: { nodes: { action: string; targetId: string }[] } }>(moderator, AUDIT);
      expect(audit.data?.moderationAuditLog.nodes.slice(0, 2)).toEqual([
        expect.objectContaining({ action: 'UNSUSPEND', targetId: owner.id }),
        expect.objectContaining({ action: 'SUSPEND', targetId: owner.id }),
      ]);
    });
  },
);
