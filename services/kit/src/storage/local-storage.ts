import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import path from 'node:path';
import { type ObjectStorage, type ObjectStream, type StoredObject, assertValidKey, contentTypeForKey } from './object-storage';

/** Files under a directory (DATA_DIR/objects); writes go to a temporary name first, so a crash never leaves half a file. */
export class LocalStorage implements ObjectStorage {
  readonly driver = 'local' as const;

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
  private readonly objects = new Map<string, StoredObject>();

  async ensureReady(): Promise<void> {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidKey(key);
    if (contentType !== contentTypeForKey(key)) throw new Error(`Content type ${contentType} does not match the key ${key}`);
    this.objects.set(key, { body: Buffer.from(body), contentType });
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
