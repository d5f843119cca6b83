import path from 'node:path';
import type { InfraConfig } from '../config';
import { LocalStorage, MemoryStorage } from './local-storage';
import type { ObjectStorage } from './object-storage';
import { S3Storage, readS3Config } from './s3-storage';

export type { ObjectStorage, ObjectStream, StoredObject } from './object-storage';
export { LocalStorage, MemoryStorage } from './local-storage';
export { S3Storage, readS3Config, type S3StorageConfig } from './s3-storage';

/** One memory store per `memory://` data dir, so the media service and the gateway of one process share it. */
const memoryStores = new Map<string, MemoryStorage>();

/**
 * S3-compatible when S3_BUCKET is set; otherwise files under DATA_DIR/objects (in memory for `memory://`).
 * The media service writes; the gateway only reads keys the media service hands it after its access check.
 */
export function openObjectStorage(infra: InfraConfig, env: NodeJS.ProcessEnv): ObjectStorage {
  const s3 = readS3Config(env);
  if (s3) return new S3Storage(s3);
  if (infra.dataDir.startsWith('memory://')) {
    const store = memoryStores.get(infra.dataDir) ?? new MemoryStorage();
    memoryStores.set(infra.dataDir, store);
    return store;
  }
  return new LocalStorage(path.join(infra.dataDir, 'objects'));
}
