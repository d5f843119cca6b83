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

/** One object of a listing. */
export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

/** A part of a multipart upload, as S3 (and Uppy) name its fields. */
export interface UploadedPart {
  PartNumber: number;
  ETag: string;
  Size: number;
}

/** A form upload the browser sends straight to the bucket (S3's presigned POST): where, and the fields to send before the file. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

/**
 * Uploads that go from the browser straight to the store, bypassing the gateway: only a driver with its own
 * HTTP endpoint (S3) has them; for the others the gateway receives the bytes itself.
 */
export interface DirectUploads {
  /** A URL the browser PUTs the object's bytes to, valid `expiresInSeconds`. */
  presignPut(key: string, expiresInSeconds: number): Promise<string>;
  /** A form upload whose policy limits the key and the size (1 to `maxBytes`). */
  presignPost(key: string, maxBytes: number, expiresInSeconds: number): Promise<PresignedPost>;
  createMultipart(key: string): Promise<string>;
  presignPart(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string>;
  listParts(key: string, uploadId: string): Promise<UploadedPart[]>;
  completeMultipart(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]): Promise<void>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

/** A streamed write ran past its byte limit: nothing was kept. */
export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The object is larger than ${maxBytes} bytes`);
    this.name = 'ObjectTooLargeError';
  }
}

/** A create-only write found the object already there: nothing was written. */
export class ObjectExistsError extends Error {
  constructor(readonly key: string) {
    super(`The object ${key} already exists`);
    this.name = 'ObjectExistsError';
  }
}

export interface PutStreamOptions {
  /** Refuse with ObjectExistsError when the key already holds an object, and never replace one written meanwhile. */
  createOnly?: boolean;
  /** The body's exact length, when known: S3 then streams it through instead of gathering it first. */
  size?: number;
}

/**
 * Where the media service keeps image files. Drivers: local files under DATA_DIR (embedded default),
 * memory (for `memory://` data dirs in tests) and S3-compatible (distributed). All pass one contract suite.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 'memory' | 's3';
  /** Browser-to-store uploads, when the driver has them (S3); null otherwise. */
  readonly direct: DirectUploads | null;
  /** Creates the directory or bucket if needed. */
  ensureReady(): Promise<void>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Writes a stream without holding it in memory; past `maxBytes` it stops reading, keeps nothing and rejects with
   * ObjectTooLargeError. A failed write keeps nothing either. Resolves with the length written.
   */
  putStream(key: string, body: Readable, maxBytes: number, options?: PutStreamOptions): Promise<number>;
  /** null when there is no such object. */
  get(key: string): Promise<StoredObject | null>;
  /** null when there is no such object. The caller reads the stream to its end or destroys it. */
  openStream(key: string): Promise<ObjectStream | null>;
  exists(key: string): Promise<boolean>;
  /** Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (a folder ending in `/`), in key order. */
  list(prefix: string): Promise<ListedObject[]>;
}

/** Keys are chosen by the server; this shape keeps them safe as file paths and URL segments. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9_.-]*)*$/;

export function assertValidKey(key: string): void {
  if (key.length > 512 || !KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part.startsWith('.'))) {
    throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
  }
}

/** A listing's prefix: a key-shaped folder ending in `/`. */
export function assertValidPrefix(prefix: string): void {
  if (!prefix.endsWith('/')) throw new Error(`Invalid object prefix: ${JSON.stringify(prefix)}`);
  assertValidKey(prefix.slice(0, -1));
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
  const name = key.slice(key.lastIndexOf('/') + 1);
  if (!name.includes('.')) return 'application/octet-stream';
  return TYPES[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}
