import { randomUUID } from 'node:crypto';
import { chatService } from '@app/chat';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import { type Database, openObjectStorage } from '@app/kit';
import {
  type ContentRating,
  type ContentRefusal,
  type EventEnvelope,
  type GenerationJob,
  type ModerationActioned,
  identityEvents,
  mediaEvents,
  mediaRpc,
} from '@app/schema';
import sharp from 'sharp';
import { TestClient, registration } from '../../../gateway/test/http-client';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';
import { DemoRendererProvider, createMediaService } from '../src';
import { ImagesService } from '../src/images/images.service';
import { createMediaStore } from '../src/media.store';
import { BLOCKED_PICTURE_MESSAGE } from '../src/moderation/blocked-pictures';
import { ModerationService } from '../src/moderation/moderation.service';
import { ScriptedImageProvider } from './scripted-image-provider';

jest.setTimeout(90_000);

const EVERY_RATING: ContentRating[] = ['safe', 'suggestive', 'explicit'];
const demo = new DemoRendererProvider(0);
/** A picture with detail, different for each prompt (the scripted provider's plain pictures all look alike). */
const drawPicture = async (prompt: string) =>
  (await demo.generate({ prompt, settings: { size: '1024x1024', quality: 'standard', style: 'vivid' } })).image;

describe.each(testTargets().map((target) => [target.name, target] as const))('image moderation on %s', (_name, target: TestTarget) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void> = async () => undefined;
  const provider = new ScriptedImageProvider();
  const refusals: ContentRefusal[] = [];

  beforeAll(async () => {
    const created = await target.create();
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_GENERATIONS_PER_MINUTE: '100', MEDIA_ACTIVE_JOBS_PER_MEMBER: '50' },
      services: [identityService, chatService, createMediaService({ provider, sweepIntervalMs: 200, pollIntervalMs: 100 })],
    });
    await platform.observe({ subjects: [mediaEvents.contentRefused.type], deliver: 'all' }, async (event) => {
      refusals.push(mediaEvents.contentRefused.data.parse(event.data));
    });
    cleanup = async () => {
      await platform?.stop();
      await created.cleanup();
    };
  });
  afterAll(() => cleanup());

  const serviceDb = (name: string): Database => platform.services.find((service) => service.name === name)!.db;

  /** A signed-up member (10 tokens, 3 free images a month), by id. */
  async function member(): Promise<{ id: string }> {
    const client = new TestClient(platform.url);
    expect((await client.fetch('/api/auth/register', { method: 'POST', json: registration() })).status).toBe(201);
    const { id } = (await (await client.fetch('/api/user')).json()) as { id: string };
    return { id };
  }
  /** From the ledger itself (the gateway's session cache may hold an older balance for a while). */
  const tokens = async (userId: string) => {
    const [row] = await serviceDb('identity').query<{ token_balance: number }>(
      `SELECT "token_balance" FROM "identity"."users" WHERE "id" = $1`,
      [userId],
    );
    return Number(row!.token_balance);
  };

  /** Runs a generation to its end; the provider answers with `picture` (by default one drawn from the prompt). */
  async function generate(userId: string, prompt: string, picture?: Buffer): Promise<GenerationJob> {
    provider.answers.push({ steps: 1, stepDelayMs: 1, image: picture ?? (await drawPicture(prompt)) });
    const queued = await platform.bus.request(mediaRpc.createGeneration, { userId, input: { prompt } });
    let job = queued;
    await eventually(async () => {
      job = await platform.bus.request(mediaRpc.getGeneration, { userId, jobId: queued.id });
      expect(['done', 'failed', 'cancelled']).toContain(job.status);
    }, 20_000);
    return job;
  }
  async function generated(userId: string, prompt: string, picture?: Buffer): Promise<string> {
    const job = await generate(userId, prompt, picture);
    expect({ status: job.status, errorCode: job.errorCode }).toEqual({ status: 'done', errorCode: null });
    return job.image!.id;
  }
  const publish = (userId: string, imageId: string, rating?: ContentRating) =>
    platform.bus.request(mediaRpc.setVisibility, { userId, imageId, isPublic: true, rating });
  const getImage = (userId: string, imageId: string, ratings: ContentRating[] = EVERY_RATING) =>
    platform.bus.request(mediaRpc.getImage, { userId, imageId, ratings });
  const locate = (userId: string | null, imageId: string, ratings: ContentRating[] = EVERY_RATING) =>
    platform.bus.request(mediaRpc.locateImageFile, { userId, imageId, variant: 'original', ratings });
  const publicIds = async (viewerId: string, search: string, ratings?: ContentRating[]) =>
    (await platform.bus.request(mediaRpc.listPublicImages, { userId: viewerId, search, ratings })).images.map((image) => image.id);
  const mineIds = async (userId: string) => (await platform.bus.request(mediaRpc.listMyImages, { userId })).images.map((image) => image.id);

  /** A moderator's decision as identity announces it: through its outbox, to media's durable consumer. */
  async function actOn(imageId: string, action: ModerationActioned['action'], rating: ContentRating | null = null): Promise<void> {
    await serviceDb('identity').transaction((tx) =>
      tx.emit(
        identityEvents.moderationActioned,
        { auditId: randomUUID(), action, targetKind: 'image', targetId: imageId, ownerId: null, rating, caseId: null, moderatorId: null },
        null,
      ),
    );
  }
  async function setSuspended(userId: string, isSuspended: boolean): Promise<void> {
    const event = isSuspended ? identityEvents.memberSuspended : identityEvents.memberUnsuspended;
    await serviceDb('identity').transaction((tx) => tx.emit(event, { userId, auditId: randomUUID(), moderatorId: null }, null));
  }
  const stateOf = async (imageId: string) => {
    const [row] = await serviceDb('media').query<{ moderation_state: string; rating: string; rating_locked: boolean }>(
      `SELECT "moderation_state", "rating", "rating_locked" FROM "media"."images" WHERE "id" = $1`,
      [imageId],
    );
    return row;
  };

  it('public lists and reads by others keep to the viewer ratings; owners see their own whatever the rating', async () => {
    const owner = await member();
    const viewer = await member();
    const [safe, suggestive, unrated] = [
      await generated(owner.id, 'Rated gallery safe'),
      await generated(owner.id, 'Rated gallery suggestive'),
      await generated(owner.id, 'Rated gallery unrated'),
    ];
    expect((await publish(owner.id, safe, 'safe')).rating).toBe('safe');
    expect((await publish(owner.id, suggestive, 'suggestive')).rating).toBe('suggestive');
    // Publishing without a rating takes the most restrictive one.
    expect(await publish(owner.id, unrated)).toMatchObject({ rating: 'explicit', moderationState: 'visible', isPublic: true });

    const sorted = (ids: string[]) => [...ids].sort();
    expect(await publicIds(viewer.id, 'rated gallery', ['safe'])).toEqual([safe]);
    expect(sorted(await publicIds(viewer.id, 'rated gallery', ['safe', 'suggestive']))).toEqual(sorted([safe, suggestive]));
    expect(sorted(await publicIds(viewer.id, 'rated gallery', EVERY_RATING))).toEqual(sorted([safe, suggestive, unrated]));
    // A caller that names no ratings gets what a visitor gets.
    expect(await publicIds(viewer.id, 'rated gallery')).toEqual([safe]);

    await expect(getImage(viewer.id, unrated, ['safe', 'suggestive'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(locate(viewer.id, suggestive, ['safe'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(locate(null, unrated, ['safe'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await getImage(viewer.id, unrated, ['explicit'])).rating).toBe('explicit');
    expect((await getImage(owner.id, unrated, ['safe'])).rating).toBe('explicit');
    // Only what a visitor may see can be kept by shared caches.
    expect((await locate(null, safe, ['safe'])).isPublic).toBe(true);
    expect((await locate(viewer.id, unrated, EVERY_RATING)).isPublic).toBe(false);

    // Publishing again without a rating keeps the current one.
    await platform.bus.request(mediaRpc.setVisibility, { userId: owner.id, imageId: suggestive, isPublic: false });
    expect((await publish(owner.id, suggestive)).rating).toBe('suggestive');
  });

  it('a hidden image is seen by its owner only, marked; a removed one by nobody, but moderators still reach it', async () => {
    const owner = await member();
    const viewer = await member();
    const hidden = await generated(owner.id, 'Taken down hidden');
    const removed = await generated(owner.id, 'Taken down removed');
    await publish(owner.id, hidden, 'safe');
    await publish(owner.id, removed, 'safe');
    expect(await publicIds(viewer.id, 'taken down')).toHaveLength(2);

    await actOn(hidden, 'hide');
    await eventually(async () => expect((await getImage(owner.id, hidden)).moderationState).toBe('hidden'));
    await expect(getImage(viewer.id, hidden)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(locate(viewer.id, hidden)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await locate(owner.id, hidden)).isPublic).toBe(false);
    expect(await publicIds(viewer.id, 'taken down')).toEqual([removed]);
    expect(await mineIds(owner.id)).toContain(hidden);

    await actOn(removed, 'remove');
    await eventually(() => expect(getImage(owner.id, removed)).rejects.toMatchObject({ code: 'NOT_FOUND' }));
    await expect(getImage(viewer.id, removed)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(locate(owner.id, removed)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(platform.bus.request(mediaRpc.deleteImage, { userId: owner.id, imageId: removed })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await mineIds(owner.id)).not.toContain(removed);
    expect(await publicIds(viewer.id, 'taken down')).toEqual([]);

    const { targets } = await platform.bus.request(mediaRpc.describeImages, { imageIds: [removed, randomUUID(), hidden] });
    expect(targets).toEqual([
      expect.objectContaining({
        kind: 'image',
        id: removed,
        ownerId: owner.id,
        text: 'Taken down removed',
        state: 'removed',
        rating: 'safe',
      }),
      expect.objectContaining({ id: hidden, state: 'hidden', isPublic: true, imageUrl: `/api/moderation/images/${hidden}/file` }),
    ]);
    const file = await platform.bus.request(mediaRpc.locateModeratedImageFile, { imageId: removed, variant: 'w256' });
    expect(file).toMatchObject({ key: `images/${removed}/w256.webp`, contentType: 'image/webp', isPublic: false });

    await actOn(hidden, 'restore');
    await eventually(async () => expect((await getImage(viewer.id, hidden)).moderationState).toBe('visible'));
  });

  it("a suspension takes the member's images out of public view, new ones included, and lifting it brings them back", async () => {
    const owner = await member();
    const viewer = await member();
    const before = await generated(owner.id, 'Suspended gallery before');
    await publish(owner.id, before, 'safe');

    await setSuspended(owner.id, true);
    await eventually(async () => expect(await publicIds(viewer.id, 'suspended gallery')).toEqual([]));
    await expect(getImage(viewer.id, before)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await getImage(owner.id, before)).isPublic).toBe(true);
    const during = await generated(owner.id, 'Suspended gallery during');
    await publish(owner.id, during, 'safe');
    expect(await publicIds(viewer.id, 'suspended gallery')).toEqual([]);

    await setSuspended(owner.id, false);
    await eventually(async () => expect((await publicIds(viewer.id, 'suspended gallery')).sort()).toEqual([before, during].sort()));
  });

  it("a moderator's rating holds: the owner publishing with another rating does not change it", async () => {
    const owner = await member();
    const viewer = await member();
    const imageId = await generated(owner.id, 'Relabelled picture');
    await publish(owner.id, imageId, 'safe');
    await actOn(imageId, 'change_rating', 'explicit');
    await eventually(async () => expect(await stateOf(imageId)).toMatchObject({ rating: 'explicit', rating_locked: true }));
    await expect(getImage(viewer.id, imageId, ['safe'])).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await platform.bus.request(mediaRpc.setVisibility, { userId: owner.id, imageId, isPublic: false });
    expect(await publish(owner.id, imageId, 'safe')).toMatchObject({ isPublic: true, rating: 'explicit' });
    expect(await publicIds(viewer.id, 'relabelled picture', ['safe'])).toEqual([]);
  });

  it('applies a redelivered decision once, and never lets an older decision undo a newer one', async () => {
    const owner = await member();
    const viewer = await member();
    const imageId = await generated(owner.id, 'Redelivered decisions');
    await publish(owner.id, imageId, 'safe');
    // The consumer's handler, as the bus calls it on a redelivery (neither bus repeats an event id by itself).
    const store = createMediaStore(serviceDb('media'));
    const moderation = new ModerationService(store, new ImagesService(store, platform.bus, openObjectStorage(platform.infra)));
    const envelope = (action: ModerationActioned['action'], occurredAt: Date, rating: ContentRating | null = null): EventEnvelope => ({
      id: randomUUID(),
      type: identityEvents.moderationActioned.type,
      version: 1,
      occurredAt: occurredAt.toISOString(),
      actorId: null,
      data: {
        auditId: randomUUID(),
        action,
        targetKind: 'image',
        targetId: imageId,
        ownerId: owner.id,
        rating,
        caseId: null,
        moderatorId: null,
      },
    });
    const now = Date.now();
    const remove = envelope('remove', new Date(now - 2_000));
    await moderation.apply(remove);
    await moderation.apply(remove);
    const blocked = () => serviceDb('media').query(`SELECT 1 FROM "media"."blocked_pictures" WHERE "image_id" = $1`, [imageId]);
    expect([(await stateOf(imageId))?.moderation_state, (await blocked()).length]).toEqual(['removed', 1]);

    await moderation.apply(envelope('restore', new Date(now - 1_000)));
    await moderation.apply(remove);
    await moderation.apply(envelope('hide', new Date(now - 1_500)));
    expect([(await stateOf(imageId))?.moderation_state, (await blocked()).length]).toEqual(['visible', 0]);
    expect((await getImage(viewer.id, imageId)).moderationState).toBe('visible');

    // The rating is ordered on its own: a later hide does not make an earlier rating change stale.
    await moderation.apply(envelope('change_rating', new Date(now - 3_000), 'suggestive'));
    expect(await stateOf(imageId)).toMatchObject({ rating: 'suggestive', rating_locked: true });
  });

  it('a removed picture cannot come back: publishing it or generating it again is refused (and refunded) until it is restored', async () => {
    const author = await member();
    const copier = await member();
    const picture = await drawPicture('A picture moderators will remove');
    const removed = await generated(author.id, 'First copy', picture);
    const earlierCopy = await generated(copier.id, 'Earlier copy', picture);
    const lookalike = await generated(copier.id, 'Lookalike', await sharp(picture).modulate({ brightness: 1.05 }).jpeg().toBuffer());
    // An image stored before hashes were kept: its hashes come from the stored original when it is removed.
    await serviceDb('media').execute(`UPDATE "media"."images" SET "sha256" = NULL, "dhash" = NULL WHERE "id" = $1`, [removed]);

    await actOn(removed, 'remove');
    await eventually(async () => expect(await stateOf(removed)).toMatchObject({ moderation_state: 'removed' }));
    const [entry] = await serviceDb('media').query<{ sha256: string }>(
      `SELECT "sha256" FROM "media"."blocked_pictures" WHERE "image_id" = $1`,
      [removed],
    );
    expect(entry?.sha256).toMatch(/^[0-9a-f]{64}$/);

    const refused = { code: 'CONTENT_REJECTED', message: BLOCKED_PICTURE_MESSAGE, details: { policyCategory: 'blocked_hash' } };
    await expect(publish(copier.id, earlierCopy, 'safe')).rejects.toMatchObject(refused);
    await expect(publish(copier.id, lookalike, 'safe')).rejects.toMatchObject(refused);
    expect((await getImage(copier.id, earlierCopy)).isPublic).toBe(false);

    const balance = await tokens(copier.id);
    const again = await generate(copier.id, 'Generated again', picture);
    // The job names the rule, as the refusal to publish does, so every edge can say which one.
    expect(again).toMatchObject({
      status: 'failed',
      errorCode: 'CONTENT_REJECTED',
      errorMessage: BLOCKED_PICTURE_MESSAGE,
      policyCategory: 'blocked_hash',
      image: null,
    });
    // The token and the month's image come back (the refund follows the job's end): this is the member's third image.
    await eventually(async () => expect(await tokens(copier.id)).toBe(balance));
    const nearly = await generate(copier.id, 'Generated nearly again', await sharp(picture).resize(800).png().toBuffer());
    expect(nearly).toMatchObject({ status: 'failed', errorCode: 'CONTENT_REJECTED', policyCategory: 'blocked_hash' });
    await eventually(async () => expect(await tokens(copier.id)).toBe(balance));
    const stored = await serviceDb('media').query(`SELECT 1 FROM "media"."images" WHERE "job_id" = ANY($1::uuid[])`, [
      [again.id, nearly.id],
    ]);
    expect(stored).toEqual([]);

    await eventually(() => {
      const mine = refusals.filter((refusal) => refusal.userId === copier.id);
      expect(mine).toEqual([
        { path: 'image.publish', reason: 'blocked_hash', stage: 'hash', userId: copier.id, evidence: ['sha256'], text: null },
        expect.objectContaining({ path: 'image.publish', evidence: [expect.stringMatching(/^dhash:\d+$/)] }),
        expect.objectContaining({ path: 'image.generated', reason: 'blocked_hash', stage: 'hash', evidence: ['sha256'] }),
        expect.objectContaining({ path: 'image.generated', evidence: [expect.stringMatching(/^dhash:\d+$/)] }),
      ]);
    });

    await actOn(removed, 'restore');
    await eventually(async () => expect(await stateOf(removed)).toMatchObject({ moderation_state: 'visible' }));
    expect((await publish(copier.id, earlierCopy, 'safe')).isPublic).toBe(true);
    expect(await generate(author.id, 'Allowed again', picture)).toMatchObject({ status: 'done', policyCategory: null });
  });
});
