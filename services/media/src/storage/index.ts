import path from 'node:path';
import type { InfraConfig } from '@app/kit';
import { LocalStorage, MemoryStorage } from './local-storage';
import type { ObjectStorage } from './object-storage';
import { S3Storage, readS3Config } from './s3-storage';

export type { ObjectStorage, StoredObject } from './object-storage';
export { LocalStorage, MemoryStorage } from './local-storage';
export { S3Storage, readS3Config, type S3StorageConfig } from './s3-storage';

/** S3-compatible when S3_BUCKET is set; otherwise files under DATA_DIR/objects (in memory for `memory://`). */
export function openObjectStorage(infra: InfraConfig, env: NodeJS.ProcessEnv): ObjectStorage {
  const s3 = readS3Config(env);
  if (s3) return new S3Storage(s3);
  if (infra.dataDir.startsWith('memory://')) return new MemoryStorage();
  return new LocalStorage(path.join(infra.dataDir, 'objects'));
}
