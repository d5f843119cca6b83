import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { ByteLimit } from './byte-limit';
import {
  type ListedObject,
  type ObjectStorage,
  type ObjectStream,
  type PutStreamOptions,
  type StoredObject,
  ObjectExistsError,
  assertValidKey,
  assertValidPrefix,
  contentTypeForKey,
} from './object-storage';

/** Temporary names of writes in progress: `<file>.<uuid>.tmp`, never listed. */
const TEMPORARY = /\.[0-9a-f-]{36}\.tmp$/;

/** Moves a finished write into place unless the file exists: a hard link never replaces its target (the temporary name goes after). */
async function createOnly(temporary: string, file: string, key: string): Promise<void> {
  try {
    await fs.link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ObjectExistsError(key);
    throw error;
  }
}

/** Files under a directory (DATA_DIR/objects); writes go to a temporary name first, so a crash never leaves half a file. */
export class LocalStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  readonly direct = null;

  constructor(private readonly root: string) {}

  async ensureReady(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.pathOf(key);
    if (contentType !== contentTypeForKey(key)) throw new Error(`Content type ${contentType} does not match the key ${key}`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomUUID()}.tmp`;
    await fs.writeFile(temporary, body);
    await fs.rename(temporary, file);
  }

  async putStream(key: string, body: Readable, maxBytes: number, options: PutStreamOptions = {}): Promise<number> {
    const file = this.pathOf(key);
    // Refused before a byte is read; the link below still refuses an object written meanwhile.
    if (options.createOnly && (await this.exists(key))) throw new ObjectExistsError(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomUUID()}.tmp`;
    const limit = new ByteLimit(maxBytes);
    try {
      await pipeline(body, limit, createWriteStream(temporary));
      if (options.createOnly) await createOnly(temporary, file, key);
      else await fs.rename(temporary, file);
      return limit.bytes;
    } finally {
      await fs.rm(temporary, { force: true });
    }
  }

  async list(prefix: string): Promise<ListedObject[]> {
    assertValidPrefix(prefix);
    const folder = this.pathOf(prefix.slice(0, -1));
    let names: string[];
    try {
      names = await fs.readdir(folder, { recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
      throw error;
    }
    const listed: ListedObject[] = [];
    for (const name of names) {
      if (TEMPORARY.test(name)) continue;
      const stat = await fs.stat(path.join(folder, name)).catch(() => null);
      if (!stat?.isFile()) continue;
      listed.push({ key: prefix + name.split(path.sep).join('/'), size: stat.size, lastModified: stat.mtime });
    }
    return listed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      return { body: await fs.readFile(this.pathOf(key)), contentType: contentTypeForKey(key) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async openStream(key: string): Promise<ObjectStream | null> {
    const file = this.pathOf(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      // The size and the bytes come from one open file, so a concurrent overwrite (a rename) cannot mix them.
      const { size } = await handle.stat();
      return { stream: createReadStream(file, { fd: handle, autoClose: true }), contentType: contentTypeForKey(key), size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Invalid object key: ${key}`);
    return file;
  }
}

/** In memory, for `memory://` data directories (tests); same rules as the file driver. */
export class MemoryStorage implements ObjectStorage {
  readonly driver = 'memory' as const;
  readonly direct = null;
  private readonly objects = new Map<string, StoredObject & { lastModified: Date }>();

  async ensureReady(): Promise<void> {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidKey(key);
    if (contentType !== contentTypeForKey(key)) throw new Error(`Content type ${contentType} does not match the key ${key}`);
    this.objects.set(key, { body: Buffer.from(body), contentType, lastModified: new Date() });
  }

  async putStream(key: string, body: Readable, maxBytes: number, options: PutStreamOptions = {}): Promise<number> {
    assertValidKey(key);
    if (options.createOnly && this.objects.has(key)) throw new ObjectExistsError(key);
    const limit = new ByteLimit(maxBytes);
    const chunks: Buffer[] = [];
    await pipeline(body, limit, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    });
    if (options.createOnly && this.objects.has(key)) throw new ObjectExistsError(key);
    this.objects.set(key, { body: Buffer.concat(chunks), contentType: contentTypeForKey(key), lastModified: new Date() });
    return limit.bytes;
  }

  async list(prefix: string): Promise<ListedObject[]> {
    assertValidPrefix(prefix);
    return [...this.objects]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, object]) => ({ key, size: object.body.length, lastModified: object.lastModified }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    const found = this.objects.get(key);
    return found ? { body: Buffer.from(found.body), contentType: found.contentType } : null;
  }

  async openStream(key: string): Promise<ObjectStream | null> {
    const found = await this.get(key);
    return found ? { stream: Readable.from([found.body]), contentType: found.contentType, size: found.body.length } : null;
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    return this.objects.has(key);
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    this.objects.delete(key);
  }
}
