import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  Infra,
  LocalStorage,
  MemoryStorage,
  ObjectExistsError,
  type ObjectStorage,
  ObjectTooLargeError,
  S3Storage,
  openObjectStorage,
  readS3Config,
} from '@app/kit';
import { startLocalS3 } from './local-s3';

jest.setTimeout(30_000);

type Driver = { name: string; open(): Promise<{ storage: ObjectStorage; close(): Promise<void> }> };

const drivers: Driver[] = [
  {
    name: 'local files',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'objects-'));
      return { storage: new LocalStorage(path.join(dir, 'objects')), close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  { name: 'memory', open: async () => ({ storage: new MemoryStorage(), close: async () => undefined }) },
  {
    name: 'S3-compatible (s3rver)',
    open: async () => {
      const s3 = await startLocalS3();
      const storage = new S3Storage(s3.config);
      return {
        storage,
        close: async () => {
          storage.close();
          await s3.stop();
        },
      };
    },
  },
];

/** One contract for every storage driver: what the media service relies on. */
describe.each(drivers.map((driver) => [driver.name, driver] as const))('object storage: %s', (_name, driver) => {
  let storage: ObjectStorage;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ storage, close } = await driver.open());
    await storage.ensureReady();
    await storage.ensureReady(); // idempotent
  });
  afterAll(() => close());

  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

  it('stores, reads back byte-for-byte with its content type, and reports existence', async () => {
    await storage.put('images/abc/original.png', png, 'image/png');
    expect(await storage.exists('images/abc/original.png')).toBe(true);
    const object = await storage.get('images/abc/original.png');
    expect(object?.contentType).toBe('image/png');
    expect(object?.body.equals(png)).toBe(true);
  });

  it('answers null / false for missing objects, and deleting twice is fine', async () => {
    expect(await storage.get('images/missing/original.png')).toBeNull();
    expect(await storage.exists('images/missing/original.png')).toBe(false);
    await storage.put('images/gone/w256.webp', Buffer.from('RIFF....WEBP'), 'image/webp');
    await storage.delete('images/gone/w256.webp');
    await storage.delete('images/gone/w256.webp');
    expect(await storage.get('images/gone/w256.webp')).toBeNull();
  });

  it('overwrites an object in place', async () => {
    await storage.put('images/same/original.png', Buffer.from('first'), 'image/png');
    await storage.put('images/same/original.png', Buffer.from('second'), 'image/png');
    expect((await storage.get('images/same/original.png'))?.body.toString()).toBe('second');
  });

  it('stores a large object intact', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 7);
    big[big.length - 1] = 9;
    await storage.put('images/big/original.png', big, 'image/png');
    expect((await storage.get('images/big/original.png'))?.body.equals(big)).toBe(true);
  });

  it('streams an object with its length and content type, and answers null for a missing one', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 5);
    big[0] = 1;
    await storage.put('images/streamed/w1024.webp', big, 'image/webp');
    const opened = await storage.openStream('images/streamed/w1024.webp');
    expect(opened?.size).toBe(big.length);
    expect(opened?.contentType).toBe('image/webp');
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
    expect(await storage.openStream('images/missing/w256.webp')).toBeNull();
    await expect(storage.openStream('../escape.png')).rejects.toThrow('Invalid object key');
  });

  it('writes a stream within its byte limit, and keeps nothing of one past it', async () => {
    const body = Buffer.alloc(2 * 1024 * 1024 + 3, 4);
    const chunks = (buffer: Buffer) => Readable.from([buffer.subarray(0, 1024 * 1024), buffer.subarray(1024 * 1024)]);
    expect(await storage.putStream('uploads/member/ok', chunks(body), body.length)).toBe(body.length);
    expect((await storage.get('uploads/member/ok'))?.body.equals(body)).toBe(true);
    await expect(storage.putStream('uploads/member/too-big', chunks(body), body.length - 1)).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await storage.exists('uploads/member/too-big')).toBe(false);
    expect((await storage.list('uploads/member/')).map((object) => object.key)).toEqual(['uploads/member/ok']);
  });

  it('writes create-only when asked (a used upload link cannot overwrite), and streams a write of known size', async () => {
    const chunks = (buffer: Buffer) => Readable.from([buffer]);
    const first = Buffer.from('first');
    await storage.putStream('uploads/member/once', chunks(first), 100, { createOnly: true });
    await expect(storage.putStream('uploads/member/once', chunks(Buffer.from('second')), 100, { createOnly: true })).rejects.toBeInstanceOf(
      ObjectExistsError,
    );
    expect((await storage.get('uploads/member/once'))?.body.equals(first)).toBe(true);
    const body = Buffer.alloc(200_000, 7);
    expect(await storage.putStream('uploads/member/sized', chunks(body), body.length, { size: body.length })).toBe(body.length);
    expect((await storage.get('uploads/member/sized'))?.body.equals(body)).toBe(true);
    await storage.delete('uploads/member/once');
    await storage.delete('uploads/member/sized');
  });

  it('lists the objects under a prefix with their sizes and times, in key order', async () => {
    const started = Date.now() - 5_000;
    await storage.put('photos/a/1/thumb.webp', Buffer.from('one'), 'image/webp');
    await storage.put('photos/a/1/original.png', Buffer.from('three'), 'image/png');
    await storage.put('photos/ab/2/original.png', Buffer.from('x'), 'image/png');
    const listed = await storage.list('photos/a/');
    expect(listed.map(({ key, size }) => [key, size])).toEqual([
      ['photos/a/1/original.png', 5],
      ['photos/a/1/thumb.webp', 3],
    ]);
    expect(listed.every((object) => object.lastModified.getTime() >= started)).toBe(true);
    expect(await storage.list('photos/nothing/')).toEqual([]);
    await expect(storage.list('photos/../')).rejects.toThrow('Invalid object');
  });

  it('offers browser-to-store uploads only when the store has its own endpoint (S3)', async () => {
    if (storage.driver !== 's3') return expect(storage.direct).toBeNull();
    const direct = storage.direct!;
    const put = await fetch(await direct.presignPut('uploads/direct/put', 60), { method: 'PUT', body: 'put bytes' });
    expect(put.status).toBe(200);
    expect((await storage.get('uploads/direct/put'))?.body.toString()).toBe('put bytes');

    const post = await direct.presignPost('uploads/direct/post', 1024, 60);
    expect(post.fields.key).toBe('uploads/direct/post');
    const form = new FormData();
    for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
    form.append('file', new Blob(['form bytes']));
    expect((await fetch(post.url, { method: 'POST', body: form })).ok).toBe(true);
    expect((await storage.get('uploads/direct/post'))?.body.toString()).toBe('form bytes');

    const uploadId = await direct.createMultipart('uploads/direct/multi');
    const first = Buffer.alloc(5 * 1024 * 1024, 1);
    const parts = [];
    for (const [index, body] of [first, Buffer.from('tail')].entries()) {
      const response = await fetch(await direct.presignPart('uploads/direct/multi', uploadId, index + 1, 60), { method: 'PUT', body });
      expect(response.status).toBe(200);
      parts.push({ PartNumber: index + 1, ETag: response.headers.get('etag')! });
    }
    await direct.completeMultipart('uploads/direct/multi', uploadId, parts);
    expect((await storage.get('uploads/direct/multi'))?.body.equals(Buffer.concat([first, Buffer.from('tail')]))).toBe(true);
  });

  it('refuses keys that could escape or are not server-shaped', async () => {
    for (const key of ['../etc/passwd', 'images/../../x.png', '/abs.png', 'images/.hidden', 'Images/UPPER.png', '', 'a//b.png']) {
      await expect(storage.put(key, png, 'image/png')).rejects.toThrow('Invalid object key');
      await expect(storage.get(key)).rejects.toThrow('Invalid object key');
    }
  });
});

describe('choosing the storage driver', () => {
  it('uses S3 when S3_BUCKET is set, files under DATA_DIR otherwise, memory for memory:// data dirs', () => {
    const settings = { dataDir: '/tmp/data', databaseUrl: null, natsUrl: null };
    expect(openObjectStorage(Infra.from(settings)).driver).toBe('local');
    expect(openObjectStorage(Infra.from({ ...settings, dataDir: 'memory://x' })).driver).toBe('memory');
    const s3 = openObjectStorage(Infra.from(settings, { S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }));
    expect(s3.driver).toBe('s3');
    (s3 as S3Storage).close();
  });

  it('refuses a bucket without credentials and reads the documented defaults', () => {
    expect(() => readS3Config({ S3_BUCKET: 'media' })).toThrow('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required');
    expect(readS3Config({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' })).toEqual({
      endpoint: null,
      bucket: 'media',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
  });
});
