import type { Readable } from 'node:stream';

/** A stored object: its bytes and how to serve them. */
export interface StoredObject {
  body: Buffer;
  contentType: string;
}

/** A stored object opened for reading, so it can be served without holding it in memory. */
export interface ObjectStream {
  stream: Readable;
  contentType: string;
  /** Its length in bytes. */
  size: number;
}

/**
 * Where the media service keeps image files. Drivers: local files under DATA_DIR (embedded default),
 * memory (for `memory://` data dirs in tests) and S3-compatible (distributed). All pass one contract suite.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 'memory' | 's3';
  /** Creates the directory or bucket if needed. */
  ensureReady(): Promise<void>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** null when there is no such object. */
  get(key: string): Promise<StoredObject | null>;
  /** null when there is no such object. The caller reads the stream to its end or destroys it. */
  openStream(key: string): Promise<ObjectStream | null>;
  exists(key: string): Promise<boolean>;
  /** Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are chosen by the server; this shape keeps them safe as file paths and URL segments. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9_.-]*)*$/;

export function assertValidKey(key: string): void {
  if (key.length > 512 || !KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part.startsWith('.'))) {
    throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
  }
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  json: 'application/json',
};

/** The content type a key's extension implies (local files keep no metadata). */
export function contentTypeForKey(key: string): string {
  return TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}
