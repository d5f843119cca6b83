import { storageEnvironment } from '../env/kit.environment';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteLimit } from './byte-limit';
import {
  type DirectUploads,
  type ListedObject,
  type ObjectStorage,
  type ObjectStream,
  type PresignedPost,
  type PutStreamOptions,
  type StoredObject,
  type UploadedPart,
  ObjectExistsError,
  ObjectTooLargeError,
  assertValidKey,
  assertValidPrefix,
  contentTypeForKey,
} from './object-storage';

export interface S3StorageConfig {
  endpoint: string | null;
  /** The same server as browsers reach it (S3_PUBLIC_ENDPOINT), when `endpoint` is an address only the services can reach. */
  publicEndpoint?: string | null;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (bucket in the path), needed by MinIO, s3rver and most self-hosted servers. */
  forcePathStyle: boolean;
}

/** Reads S3_* settings; null when S3_BUCKET is unset (the file driver is used). */
export function readS3Config(env: NodeJS.ProcessEnv): S3StorageConfig | null {
  const vars = storageEnvironment.parse(env);
  const bucket = vars.S3_BUCKET;
  if (!bucket) return null;
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = vars;
  if (!accessKeyId || !secretAccessKey) throw new Error('S3_BUCKET is set: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required too');
  return {
    endpoint: vars.S3_ENDPOINT,
    ...(vars.S3_PUBLIC_ENDPOINT ? { publicEndpoint: vars.S3_PUBLIC_ENDPOINT } : {}),
    bucket,
    region: vars.S3_REGION,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: vars.S3_FORCE_PATH_STYLE,
  };
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

/** An S3-compatible bucket (AWS S3, MinIO, R2, s3rver…). */
export class S3Storage implements ObjectStorage, DirectUploads {
  readonly driver = 's3' as const;
  readonly direct: DirectUploads = this;
  /** The origin browsers send upload bytes to (presigned PUT, POST and parts): for the page's CSP `connect-src`. */
  readonly browserOrigin: string;
  /** The server's own calls go to `endpoint`. */
  private readonly client: S3Client;
  /** Signs the URLs browsers use: a presigned URL's signature covers its host, so it is built for `publicEndpoint`. */
  private readonly browserClient: S3Client;
  private readonly publicEndpoint: string | null;

  constructor(private readonly config: S3StorageConfig) {
    this.client = this.openClient(config.endpoint);
    this.publicEndpoint = config.publicEndpoint ?? config.endpoint;
    this.browserClient = this.publicEndpoint === config.endpoint ? this.client : this.openClient(this.publicEndpoint);
    this.browserOrigin = new URL(this.bucketUrl(this.publicEndpoint)).origin;
  }

  private openClient(endpoint: string | null): S3Client {
    return new S3Client({
      region: this.config.region,
      ...(endpoint ? { endpoint } : {}),
      forcePathStyle: this.config.forcePathStyle,
      credentials: { accessKeyId: this.config.accessKeyId, secretAccessKey: this.config.secretAccessKey },
      maxAttempts: 3,
      // A streamed body is then sent as it is (with its length), not in aws-chunked framing with a trailing checksum,
      // which many S3-compatible servers (s3rver, older MinIO, some gateways) store as the object's bytes.
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
  }

  async ensureReady(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
    } catch (error) {
      if (!isMissing(error)) throw error;
      await this.client.send(new CreateBucketCommand({ Bucket: this.config.bucket }));
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.config.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }),
    );
  }

  /**
   * S3 needs a length up front: with `size` given the stream goes straight through (counted); otherwise it is gathered
   * (never past `maxBytes`), then sent in one request. Create-only writes send `If-None-Match: *`, which S3 answers 412
   * when the key exists; a look first refuses early on servers that ignore the header.
   */
  async putStream(key: string, body: Readable, maxBytes: number, options: PutStreamOptions = {}): Promise<number> {
    assertValidKey(key);
    if (options.createOnly && (await this.exists(key))) throw new ObjectExistsError(key);
    const limit = new ByteLimit(maxBytes);
    let payload: Readable | Buffer;
    if (options.size !== undefined) {
      if (options.size > maxBytes) {
        body.destroy();
        throw new ObjectTooLargeError(maxBytes);
      }
      payload = body.pipe(limit);
      body.once('error', (error) => limit.destroy(error));
    } else {
      const chunks: Buffer[] = [];
      await pipeline(body, limit, async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) chunks.push(chunk);
      });
      payload = Buffer.concat(chunks);
    }
    const length = options.size ?? (payload as Buffer).length;
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.config.bucket,
          Key: key,
          Body: payload,
          ContentLength: length,
          ContentType: contentTypeForKey(key),
          ...(options.createOnly ? { IfNoneMatch: '*' } : {}),
        }),
      );
    } catch (error) {
      // A request that failed part-way leaves the source open otherwise.
      if (payload instanceof Readable) body.destroy();
      if (options.createOnly && error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412) {
        throw new ObjectExistsError(key);
      }
      throw error;
    }
    return length;
  }

  async list(prefix: string): Promise<ListedObject[]> {
    assertValidPrefix(prefix);
    const listed: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) listed.push({ key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return listed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  presignPut(key: string, expiresInSeconds: number): Promise<string> {
    assertValidKey(key);
    return getSignedUrl(this.browserClient, new PutObjectCommand({ Bucket: this.config.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }

  /** S3's browser-based POST upload (SigV4 POST policy): the key and the size range are part of the signed policy. */
  async presignPost(key: string, maxBytes: number, expiresInSeconds: number): Promise<PresignedPost> {
    assertValidKey(key);
    const now = new Date();
    const amzDate = now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const day = amzDate.slice(0, 8);
    const credential = `${this.config.accessKeyId}/${day}/${this.config.region}/s3/aws4_request`;
    const policy = Buffer.from(
      JSON.stringify({
        expiration: new Date(now.getTime() + expiresInSeconds * 1000).toISOString(),
        conditions: [
          { bucket: this.config.bucket },
          ['eq', '$key', key],
          ['content-length-range', 1, maxBytes],
          { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
          { 'x-amz-credential': credential },
          { 'x-amz-date': amzDate },
        ],
      }),
    ).toString('base64');
    const hmac = (secret: string | Buffer, data: string) => createHmac('sha256', secret).update(data).digest();
    const signingKey = hmac(hmac(hmac(hmac(`AWS4${this.config.secretAccessKey}`, day), this.config.region), 's3'), 'aws4_request');
    return {
      url: this.bucketUrl(this.publicEndpoint),
      fields: {
        key,
        'x-amz-algorithm': 'AWS4-HMAC-SHA256',
        'x-amz-credential': credential,
        'x-amz-date': amzDate,
        policy,
        'x-amz-signature': createHmac('sha256', signingKey).update(policy).digest('hex'),
      },
    };
  }

  async createMultipart(key: string): Promise<string> {
    assertValidKey(key);
    const result = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.config.bucket, Key: key }));
    if (!result.UploadId) throw new Error('S3 answered without an upload id');
    return result.UploadId;
  }

  presignPart(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string> {
    assertValidKey(key);
    const command = new UploadPartCommand({ Bucket: this.config.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber });
    return getSignedUrl(this.browserClient, command, { expiresIn: expiresInSeconds });
  }

  async listParts(key: string, uploadId: string): Promise<UploadedPart[]> {
    assertValidKey(key);
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    do {
      const page = await this.client.send(
        new ListPartsCommand({ Bucket: this.config.bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }),
      );
      for (const part of page.Parts ?? []) {
        parts.push({ PartNumber: part.PartNumber ?? 0, ETag: part.ETag ?? '', Size: part.Size ?? 0 });
      }
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    return parts;
  }

  async completeMultipart(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]): Promise<void> {
    assertValidKey(key);
    await this.client.send(
      new CompleteMultipartUploadCommand({ Bucket: this.config.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
    );
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.config.bucket, Key: key, UploadId: uploadId }));
  }

  /** Where the bucket answers at `endpoint` (AWS's own when null): path style (`endpoint/bucket`) or virtual-hosted (`bucket.endpoint`). */
  private bucketUrl(endpoint: string | null): string {
    const base = new URL(endpoint ?? `https://s3.${this.config.region}.amazonaws.com`);
    if (this.config.forcePathStyle) return `${base.origin}${base.pathname.replace(/\/$/, '')}/${this.config.bucket}`;
    return `${base.protocol}//${this.config.bucket}.${base.host}${base.pathname.replace(/\/$/, '')}`;
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      const bytes = await result.Body!.transformToByteArray();
      return { body: Buffer.from(bytes), contentType: result.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async openStream(key: string): Promise<ObjectStream | null> {
    assertValidKey(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      // In Node the SDK's body is an http.IncomingMessage, a Readable.
      if (!(result.Body instanceof Readable) || result.ContentLength === undefined)
        throw new Error('S3 answered without a body or a length');
      return { stream: result.Body, contentType: result.ContentType ?? 'application/octet-stream', size: result.ContentLength };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
  }

  close(): void {
    this.client.destroy();
    if (this.browserClient !== this.client) this.browserClient.destroy();
  }
}
