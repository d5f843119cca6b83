import { S3Storage, type S3StorageConfig, readS3Config } from '@app/kit';
import { startLocalS3 } from './local-s3';

jest.setTimeout(30_000);

/** S3_PUBLIC_ENDPOINT: browsers get URLs signed for the address they reach; the server keeps calling S3_ENDPOINT. */
describe('S3 storage with a public endpoint for browsers', () => {
  let s3: Awaited<ReturnType<typeof startLocalS3>>;
  let port: string;
  const opened: S3Storage[] = [];
  const open = async (config: S3StorageConfig) => {
    const storage = new S3Storage(config);
    opened.push(storage);
    await storage.ensureReady();
    return storage;
  };

  beforeAll(async () => {
    s3 = await startLocalS3();
    port = new URL(s3.config.endpoint!).port;
  });
  afterAll(async () => {
    for (const storage of opened) storage.close();
    await s3?.stop();
  });

  it('signs browser uploads for the public origin, and they land in the bucket the server reads', async () => {
    const publicOrigin = `http://localhost:${port}`;
    const storage = await open({ ...s3.config, publicEndpoint: publicOrigin });
    expect(storage.browserOrigin).toBe(publicOrigin);

    const putUrl = await storage.presignPut('uploads/public/put', 60);
    expect(new URL(putUrl).origin).toBe(publicOrigin);
    expect((await fetch(putUrl, { method: 'PUT', body: 'put bytes' })).status).toBe(200);
    expect((await storage.get('uploads/public/put'))?.body.toString()).toBe('put bytes');

    const post = await storage.presignPost('uploads/public/post', 1024, 60);
    expect(new URL(post.url).origin).toBe(publicOrigin);
    const form = new FormData();
    for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
    form.append('file', new Blob(['form bytes']));
    expect((await fetch(post.url, { method: 'POST', body: form })).ok).toBe(true);
    expect((await storage.get('uploads/public/post'))?.body.toString()).toBe('form bytes');

    const uploadId = await storage.createMultipart('uploads/public/multi');
    const partUrl = await storage.presignPart('uploads/public/multi', uploadId, 1, 60);
    expect(new URL(partUrl).origin).toBe(publicOrigin);
    const part = await fetch(partUrl, { method: 'PUT', body: 'only part' });
    expect(part.status).toBe(200);
    await storage.completeMultipart('uploads/public/multi', uploadId, [{ PartNumber: 1, ETag: part.headers.get('etag')! }]);
    expect((await storage.get('uploads/public/multi'))?.body.toString()).toBe('only part');
  });

  it('makes every call of its own at S3_ENDPOINT, even when the public address does not resolve here', async () => {
    const storage = await open({ ...s3.config, publicEndpoint: `http://uploads.invalid:${port}` });
    expect(new URL(await storage.presignPut('uploads/internal/put', 60)).origin).toBe(`http://uploads.invalid:${port}`);
    expect(new URL(await storage.presignPart('uploads/internal/put', 'upload-id', 1, 60)).host).toBe(`uploads.invalid:${port}`);
    await storage.put('uploads/internal/put', Buffer.from('server bytes'), 'application/octet-stream');
    expect((await storage.get('uploads/internal/put'))?.body.toString()).toBe('server bytes');
    expect((await storage.list('uploads/internal/')).map((object) => object.key)).toEqual(['uploads/internal/put']);
    expect(await storage.createMultipart('uploads/internal/multi')).toEqual(expect.any(String));
    await storage.delete('uploads/internal/put');
    expect(await storage.exists('uploads/internal/put')).toBe(false);
  });

  it('signs with S3_ENDPOINT when no public endpoint is set', async () => {
    const storage = await open(s3.config);
    expect(storage.browserOrigin).toBe(s3.config.endpoint);
    expect(new URL(await storage.presignPut('uploads/same/put', 60)).origin).toBe(s3.config.endpoint);
  });
});

describe('the browser origin without any endpoint (AWS S3)', () => {
  const aws = { endpoint: null, bucket: 'media', region: 'eu-west-3', accessKeyId: 'k', secretAccessKey: 's' };

  it.each([
    [true, 'https://s3.eu-west-3.amazonaws.com'],
    [false, 'https://media.s3.eu-west-3.amazonaws.com'],
  ])('is the origin the SDK signs for (path style %s)', async (forcePathStyle, origin) => {
    const storage = new S3Storage({ ...aws, forcePathStyle });
    try {
      expect(storage.browserOrigin).toBe(origin);
      expect(new URL(await storage.presignPut('uploads/aws/put', 60)).origin).toBe(origin);
      expect(new URL((await storage.presignPost('uploads/aws/post', 1024, 60)).url).origin).toBe(origin);
    } finally {
      storage.close();
    }
  });
});

describe('reading S3_PUBLIC_ENDPOINT', () => {
  const required = { S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };

  it('is optional, and must be an http(s) URL when set', () => {
    expect(readS3Config(required)?.publicEndpoint).toBeUndefined();
    expect(readS3Config({ ...required, S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'http://127.0.0.1:9000' })).toMatchObject({
      endpoint: 'http://minio:9000',
      publicEndpoint: 'http://127.0.0.1:9000',
    });
    expect(() => readS3Config({ ...required, S3_PUBLIC_ENDPOINT: 'minio:9000' })).toThrow('S3_PUBLIC_ENDPOINT');
  });
});
