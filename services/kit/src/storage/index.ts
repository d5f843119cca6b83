import path from 'node:path';
import type { Infra } from '../config';
import { LocalStorage } from './local-storage';
import type { ObjectStorage } from './object-storage';
import { S3Storage } from './s3-storage';

export type {
  DirectUploads,
  ListedObject,
  ObjectStorage,
  ObjectStream,
  PresignedPost,
  PutStreamOptions,
  StoredObject,
  UploadedPart,
} from './object-storage';
export { ObjectExistsError, ObjectTooLargeError, contentTypeForKey } from './object-storage';
export { ByteLimit } from './byte-limit';
export { LocalStorage, MemoryStorage } from './local-storage';
export { S3Storage, readS3Config, type S3StorageConfig } from './s3-storage';

/**
 * S3-compatible when S3_BUCKET is set; otherwise with the rest of the embedded state: files under
 * DATA_DIR/objects, or in this process's memory. The media service writes; the gateway only reads keys the
 * media service hands it after its access check.
 */
export function openObjectStorage(infra: Infra): ObjectStorage {
  if (infra.s3) return new S3Storage(infra.s3);
  if (infra.data.kind === 'memory') return infra.memoryStorage();
  return new LocalStorage(path.join(infra.data.path, 'objects'));
}
