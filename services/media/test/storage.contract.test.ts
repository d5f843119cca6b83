import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Infra, LocalStorage, MemoryStorage, type ObjectStorage, S3Storage, openObjectStorage, readS3Config } from '@app/kit';
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
