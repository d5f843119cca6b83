import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { createGateway, readGatewayConfig } from '@app/gateway';
import { Infra, type ObjectStorage, type S3Storage, openObjectStorage } from '@app/kit';
import sharp from 'sharp';
import { type TestTarget, testTargets } from '../../services/kit/test/test-infra';
import { startLocalS3 } from '../../services/media/test/local-s3';
import { TestClient, registration } from './http-client';

jest.setTimeout(120_000);

type Driver = 'memory' | 'local' | 's3';
const DRIVERS: Driver[] = ['memory', 'local', 's3'];
const ATTESTED = { ofSelf: true, adult: true };
/** Every gateway sharing the storage signs and checks upload links with it. */
const SIGNING_SECRET = 'a shared upload signing secret of the test gateways';

const png = (width: number, height: number, red = 200) =>
  sharp({ create: { width, height, channels: 3, background: { r: red, g: 80, b: 40 } } })
    .png()
    .toBuffer();

/** A PNG of noise, which does not compress: `side`² × 3 bytes, give or take. */
const noisyPng = (side: number) => {
  const pixels = Buffer.alloc(side * side * 3);
  for (let index = 0; index < pixels.length; index++) pixels[index] = (index * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
};

/** A tiny PNG whose header claims 60000 × 60000 pixels (a pixel flood): IHDR patched, its CRC recomputed. */
async function pixelFloodPng(): Promise<Buffer> {
  const file = Buffer.from(await png(1, 1));
  file.writeUInt32BE(60_000, 16);
  file.writeUInt32BE(60_000, 20);
  file.writeUInt32BE(crc32(file.subarray(12, 29)), 29);
  return file;
}

describe.each(
  testTargets().flatMap((target) =>
    DRIVERS.map((driver) => [`${target.name}, ${driver} storage`, target, driver] as [string, TestTarget, Driver]),
  ),
)('Self-AI uploads on %s', (_name, target, driver) => {
  let platform: EmbeddedPlatform;
  let storage: ObjectStorage;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const created = await target.create();
    const closers: (() => Promise<void>)[] = [created.cleanup];
    let env: NodeJS.ProcessEnv = {};
    let dataDir = `memory://${Math.random().toString(36).slice(2)}`;
    if (driver === 'local') {
      const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-'));
      closers.push(async () => fs.rmSync(directory, { recursive: true, force: true }));
      dataDir = directory;
    }
    if (driver === 's3') {
      const s3 = await startLocalS3();
      closers.push(() => s3.stop());
      env = {
        S3_BUCKET: s3.config.bucket,
        S3_ENDPOINT: s3.config.endpoint!,
        S3_ACCESS_KEY_ID: s3.config.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
      };
    }
    const infra = Infra.from({ dataDir, databaseUrl: created.infra.databaseUrl, natsUrl: created.infra.natsUrl }, env);
    platform = await startEmbedded({
      infra,
      gateway: { port: 0 },
      env: { ...env, SIGNUPS_PER_IP_PER_HOUR: '1000', UPLOAD_SIGNING_SECRET: SIGNING_SECRET },
    });
    storage = openObjectStorage(infra);
    await storage.ensureReady();
    cleanup = async () => {
      if (storage.driver === 's3') (storage as S3Storage).close();
      for (const close of closers.reverse()) await close();
    };
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });

  async function signUp(): Promise<{ client: TestClient; id: string }> {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
    expect(response.status).toBe(201);
    return { client, id: ((await response.json()) as { id: string }).id };
  }

  async function uploadTarget(client: TestClient): Promise<string> {
    const response = await client.fetch('/api/objects/upload', { method: 'POST' });
    expect(response.status).toBe(200);
    const target = (await response.json()) as { uploadURL: string; expiresAt: string };
    expect(new Date(target.expiresAt).getTime()).toBeGreaterThan(Date.now());
    return target.uploadURL;
  }

  /** The single-URL flow: a target, the bytes PUT to it (no cookie: the URL is the permission). */
  async function upload(client: TestClient, body: Buffer): Promise<string> {
    const uploadURL = await uploadTarget(client);
    const put = await fetch(uploadURL, { method: 'PUT', body: new Uint8Array(body) });
    expect(put.status).toBe(200);
    return uploadURL;
  }

  const register = (client: TestClient, imageURL: string, attestation: unknown = ATTESTED) =>
    client.fetch('/api/upload-self-ai', { method: 'PUT', json: { imageURL, attestation } });

  const keysUnder = async (prefix: string) => (await storage.list(prefix)).map((object) => object.key);

  it('takes photos by the single-URL flow and by multipart, lists them, and serves them to their owner only', async () => {
    const owner = await signUp();
    const first = await register(owner.client, (await upload(owner.client, await png(640, 480))).split('?')[0]!);
    expect(first.status).toBe(201);
    const second = await register(owner.client, await upload(owner.client, await png(300, 500, 20)));
    expect(second.status).toBe(201);

    // Multipart, as @uppy/aws-s3 drives the companion endpoints: create, sign and PUT each part, (list), complete.
    const big = await noisyPng(1400);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const created = await owner.client.fetch('/api/s3/multipart', {
      method: 'POST',
      json: { filename: 'me.png', type: 'image/png', metadata: {} },
    });
    const { uploadId, key } = (await created.json()) as { uploadId: string; key: string };
    expect(key).toMatch(new RegExp(`^uploads/${owner.id}/`));
    const chunks = [big.subarray(0, 5 * 1024 * 1024), big.subarray(5 * 1024 * 1024)];
    const parts: { PartNumber: number; ETag: string }[] = [];
    for (const [index, chunk] of chunks.entries()) {
      const signed = await owner.client.fetch(
        `/api/s3/multipart/${encodeURIComponent(uploadId)}/${index + 1}?key=${encodeURIComponent(key)}`,
      );
      const { url } = (await signed.json()) as { url: string };
      const put = await fetch(url, { method: 'PUT', body: chunk });
      expect(put.status).toBe(200);
      parts.push({ PartNumber: index + 1, ETag: put.headers.get('etag')! });
    }
    if (driver !== 's3') {
      // s3rver has no ListParts; the gateway's own parts list like S3's.
      const listed = await owner.client.fetch(`/api/s3/multipart/${uploadId}?key=${encodeURIComponent(key)}`);
      expect(await listed.json()).toEqual(parts.map((part, index) => ({ ...part, Size: chunks[index]!.length })));
    }
    const completed = await owner.client.fetch(
      `/api/s3/multipart/${encodeURIComponent(uploadId)}/complete?key=${encodeURIComponent(key)}`,
      {
        method: 'POST',
        json: { parts },
      },
    );
    expect(completed.status).toBe(200);
    const { location } = (await completed.json()) as { location: string };
    const third = await register(owner.client, location);
    expect(third.status).toBe(201);
    const photo = (await third.json()) as { id: string; url: string; createdAt: string };

    const list = (await (await owner.client.fetch('/api/self-ai/photos')).json()) as { id: string; url: string; createdAt: string }[];
    expect(list.map((item) => item.id)).toEqual([
      photo.id,
      ((await second.json()) as { id: string }).id,
      ((await first.json()) as { id: string }).id,
    ]);
    expect(Object.keys(list[0]!).sort()).toEqual(['createdAt', 'id', 'thumbnailUrl', 'url']);

    const read = await owner.client.fetch(photo.url);
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('private, no-store');
    const stored = await sharp(Buffer.from(await read.arrayBuffer())).metadata();
    expect([stored.format, stored.width, stored.height]).toEqual(['png', 1400, 1400]);
    // Nothing staged remains once accepted.
    expect(await keysUnder(`uploads/${owner.id}/`)).toEqual([]);

    const other = await signUp();
    expect((await other.client.fetch(photo.url)).status).toBe(404);
    expect((await other.client.fetch(`/api/self-ai/photos/${photo.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await new TestClient(platform.url).fetch(photo.url)).status).toBe(401);

    expect(await keysUnder(`photos/${owner.id}/${photo.id}/`)).toEqual([
      `photos/${owner.id}/${photo.id}/original.png`,
      `photos/${owner.id}/${photo.id}/thumb.webp`,
    ]);
    const deleted = await owner.client.fetch(`/api/self-ai/photos/${photo.id}`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: photo.id });
    expect(await keysUnder(`photos/${owner.id}/${photo.id}/`)).toEqual([]);
    expect(await keysUnder(`photos/${owner.id}/`)).toHaveLength(4);
    expect((await owner.client.fetch(photo.url)).status).toBe(404);
    expect((await owner.client.fetch(`/api/self-ai/photos/${photo.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('takes a photo through the form upload Uppy sends for s3/params', async () => {
    const { client, id } = await signUp();
    const params = (await (await client.fetch('/api/s3/params?filename=me.png&type=image%2Fpng')).json()) as {
      method: string;
      url: string;
      fields: Record<string, string>;
      headers: Record<string, string>;
    };
    expect(params.method).toBe('POST');
    expect(params.fields.key).toMatch(new RegExp(`^uploads/${id}/`));
    const form = new FormData();
    for (const [name, value] of Object.entries(params.fields)) form.append(name, value);
    form.append('file', new Blob([await png(200, 200)], { type: 'image/png' }), 'me.png');
    const posted = await fetch(params.url, { method: 'POST', body: form });
    expect(posted.ok).toBe(true);
    // Uppy's location: the URL without its query, then the key.
    const location = `${params.url.split('?')[0]!.replace(/\/+$/, '')}/${params.fields.key}`;
    expect((await register(client, location)).status).toBe(201);
  });

  it('strips EXIF and GPS from a JPEG', async () => {
    const { client } = await signUp();
    const jpeg = await sharp(await png(320, 240))
      .jpeg()
      .withExif({ IFD0: { Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const registered = await register(client, await upload(client, jpeg));
    expect(registered.status).toBe(201);
    const { url } = (await registered.json()) as { url: string };
    const served = Buffer.from(await (await client.fetch(url)).arrayBuffer());
    const metadata = await sharp(served).metadata();
    expect(metadata.format).toBe('jpeg');
    expect(metadata.exif).toBeUndefined();
    expect(served.includes(Buffer.from('PhoneMaker'))).toBe(false);
  });

  it('refuses too large, wrong-type and pixel-flood files, and a missing attestation, leaving nothing behind', async () => {
    const { client, id } = await signUp();
    const tooBig = Buffer.alloc(11 * 1024 * 1024, 1);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(tooBig);
    const target = await uploadTarget(client);
    const put = await fetch(target, { method: 'PUT', body: tooBig });
    if (driver === 's3') {
      // A presigned PUT cannot limit its size: media refuses it when it is registered.
      expect(put.status).toBe(200);
      const refused = await register(client, target);
      expect(refused.status).toBe(413);
    } else {
      expect(put.status).toBe(413);
    }
    expect(await keysUnder(`uploads/${id}/`)).toEqual([]);

    const text = await register(client, await upload(client, Buffer.from('just some text, named photo.png')));
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Only JPG and PNG photos are accepted.' });

    const flood = await register(client, await upload(client, await pixelFloodPng()));
    expect(flood.status).toBe(422);
    expect(await flood.json()).toMatchObject({ code: 'INVALID_IMAGE' });
    const truncated = await register(client, await upload(client, (await noisyPng(200)).subarray(0, 4000)));
    expect(truncated.status).toBe(422);
    expect(await truncated.json()).toMatchObject({ code: 'INVALID_IMAGE' });

    const unattested = await register(client, await upload(client, await png(100, 100)), null);
    expect(unattested.status).toBe(400);
    expect(await unattested.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Confirm that the photos are of you and that you are 18 or older.',
    });
    const notAdult = await register(client, await upload(client, await png(100, 100)), { ofSelf: true, adult: false });
    expect(notAdult.status).toBe(400);

    expect(await keysUnder(`uploads/${id}/`)).toEqual([]);
    expect(await keysUnder(`photos/${id}/`)).toEqual([]);
    expect(await (await client.fetch('/api/self-ai/photos')).json()).toEqual([]);
  });

  it("refuses someone else's staged upload and keys, and the companion endpoints' missing arguments", async () => {
    const owner = await signUp();
    const intruder = await signUp();
    const uploadURL = await upload(owner.client, await png(64, 64));
    expect((await register(intruder.client, uploadURL)).status).toBe(404);
    const ownerKey = /uploads\/[0-9a-f-]+\/[0-9a-f-]+/.exec(uploadURL)![0];
    const signed = await intruder.client.fetch(
      `/api/s3/multipart/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/1?key=${encodeURIComponent(ownerKey)}`,
    );
    expect(signed.status).toBe(404);
    expect((await register(intruder.client, 'https://elsewhere.example/some/picture.png')).status).toBe(400);
    // The owner's upload is still there for the owner.
    expect((await register(owner.client, uploadURL)).status).toBe(201);

    const unsigned = await owner.client.fetch('/api/s3/multipart/some-upload/1');
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ message: 'Cannot sign without a key, an uploadId, and a partNumber' });
    expect((await owner.client.fetch('/api/upload-self-ai', { method: 'PUT', json: { attestation: ATTESTED } })).status).toBe(400);
    expect((await new TestClient(platform.url).fetch('/api/objects/upload', { method: 'POST' })).status).toBe(401);
  });

  it('uses a gateway upload target once, and never after it expires', async () => {
    if (driver === 's3') return; // S3 presigned URLs expire on S3's side; they are not single-use.
    const { client, id } = await signUp();
    const target = await uploadTarget(client);
    expect((await fetch(target, { method: 'PUT', body: await png(10, 10) })).status).toBe(200);
    const again = await fetch(target, { method: 'PUT', body: await png(10, 10) });
    expect(again.status).toBe(403);
    expect(await again.json()).toMatchObject({ code: 'FORBIDDEN', message: 'This upload link was already used.' });
    const tampered = target.replace(/expires=\d+/, `expires=${Date.now() + 10 * 3600_000}`);
    expect((await fetch(tampered, { method: 'PUT', body: await png(10, 10) })).status).toBe(403);

    const later = await uploadTarget(client);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 16 * 60_000);
    try {
      expect((await fetch(later, { method: 'PUT', body: await png(10, 10) })).status).toBe(403);
    } finally {
      clock.mockRestore();
    }
    expect(await keysUnder(`uploads/${id}/`)).toHaveLength(1);
  });

  it('honours a link on every gateway sharing the signing secret and the storage (another one, or after a restart), once', async () => {
    if (driver === 's3') return; // S3 signs its own links.
    const { client } = await signUp();
    const gateways = await Promise.all(
      [SIGNING_SECRET, 'another secret, of a gateway that does not share it'].map((secret) =>
        createGateway({ bus: platform.bus, config: { ...readGatewayConfig({ UPLOAD_SIGNING_SECRET: secret }), port: 0 }, storage }),
      ),
    );
    try {
      const [sharing, stranger] = await Promise.all(gateways.map(async (gateway) => (await gateway.listen()).url));
      const target = await uploadTarget(client);
      const elsewhere = (origin: string) => `${origin}${new URL(target).pathname}${new URL(target).search}`;
      expect((await fetch(elsewhere(stranger!), { method: 'PUT', body: await png(10, 10) })).status).toBe(403);
      expect((await fetch(elsewhere(sharing!), { method: 'PUT', body: await png(30, 30) })).status).toBe(200);
      const reused = await fetch(target, { method: 'PUT', body: await png(10, 10) });
      expect(reused.status).toBe(403);
      expect(await reused.json()).toMatchObject({ message: 'This upload link was already used.' });
      expect((await register(client, target)).status).toBe(201);
    } finally {
      await Promise.all(gateways.map((gateway) => gateway.close()));
    }
  });

  it('re-encodes one photo at a time per process and answers the overflow 503, leaving those uploads to send again', async () => {
    const { client, id } = await signUp();
    const photo = await noisyPng(900);
    const targets = await Promise.all(Array.from({ length: 14 }, () => upload(client, photo)));
    const answers = await Promise.all(targets.map((target) => register(client, target)));
    const refused = targets.filter((_target, index) => answers[index]!.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.every((answer) => answer.status === 201 || answer.status === 503)).toBe(true);
    const refusal = answers.find((answer) => answer.status === 503)!;
    expect(await refusal.json()).toMatchObject({ code: 'UNAVAILABLE' });
    expect(Number(refusal.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await keysUnder(`uploads/${id}/`)).toHaveLength(refused.length);
    for (const target of refused) expect((await register(client, target)).status).toBe(201);
    expect(await (await client.fetch('/api/self-ai/photos')).json()).toHaveLength(14);
  });

  it('sets a profile picture as small public square renditions, removing the previous one', async () => {
    const { client } = await signUp();
    const first = await client.fetch('/api/profile/picture', {
      method: 'PUT',
      json: { imageURL: await upload(client, await png(400, 300)) },
    });
    expect(first.status).toBe(200);
    const { profileImageUrl } = (await first.json()) as { profileImageUrl: string };
    expect(profileImageUrl).toMatch(/^\/api\/media\/avatars\/[0-9a-f-]{36}\/w128\.webp$/);
    const served = await new TestClient(platform.url).fetch(profileImageUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toContain('public');
    const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 128, 128]);
    expect(((await (await client.fetch('/api/user')).json()) as { profileImageUrl: string }).profileImageUrl).toBe(profileImageUrl);

    const second = await client.fetch('/api/profile/picture', {
      method: 'PUT',
      json: { imageURL: await upload(client, await png(100, 100)) },
    });
    expect(((await second.json()) as { profileImageUrl: string }).profileImageUrl).not.toBe(profileImageUrl);
    expect((await client.fetch(profileImageUrl)).status).toBe(404);
    expect(await keysUnder(`avatars/${profileImageUrl.split('/')[4]}/`)).toEqual([]);
  });

  it('offers the same over GraphQL', async () => {
    const { client } = await signUp();
    const target = await client.graphql<{ createUploadTarget: { uploadURL: string } }>(
      'mutation { createUploadTarget { uploadURL expiresAt } }',
    );
    const uploadURL = target.data!.createUploadTarget.uploadURL;
    const absolute = uploadURL.startsWith('/') ? `${platform.url}${uploadURL}` : uploadURL;
    expect((await fetch(absolute, { method: 'PUT', body: await png(50, 50) })).status).toBe(200);
    const registered = await client.graphql<{ registerSelfAiPhoto: { id: string } }>(
      'mutation ($url: String!) { registerSelfAiPhoto(imageURL: $url, attestation: { ofSelf: true, adult: true }) { id url createdAt } }',
      { url: uploadURL },
    );
    const id = registered.data!.registerSelfAiPhoto.id;
    const mine = await client.graphql<{ mySelfAiPhotos: { id: string }[] }>('{ mySelfAiPhotos { id url createdAt } }');
    expect(mine.data!.mySelfAiPhotos.map((photo) => photo.id)).toEqual([id]);
    const deleted = await client.graphql<{ deleteSelfAiPhoto: string }>('mutation ($id: ID!) { deleteSelfAiPhoto(id: $id) }', { id });
    expect(deleted.data!.deleteSelfAiPhoto).toBe(id);
    const unattested = await client.graphql(
      'mutation ($url: String!) { registerSelfAiPhoto(imageURL: $url, attestation: { ofSelf: false, adult: true }) { id } }',
      {
        url: uploadURL,
      },
    );
    expect(unattested.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('limits how many uploads a member starts in an hour', async () => {
    const { client } = await signUp();
    for (let index = 0; index < 30; index++) expect((await client.fetch('/api/objects/upload', { method: 'POST' })).status).toBe(200);
    const refused = await client.fetch('/api/objects/upload', { method: 'POST' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
