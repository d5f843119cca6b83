import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { ObjectExistsError, type ObjectStorage, ObjectTooLargeError, logger } from '@app/kit';
import { AppError, UPLOAD_KEY_PATTERN, UPLOAD_MAX_BYTES } from '@app/schema';

/** How long an upload target stays usable. */
export const UPLOAD_TARGET_TTL_SECONDS = 15 * 60;
/** Uppy's limit on parts; also bounds what listing or completing an upload reads. */
const MAX_PARTS = 10_000;

/** Where the gateway itself receives bytes for drivers without their own endpoint (local files, memory). */
export const UPLOAD_PATH = '/api/objects/upload';
export const FORM_UPLOAD_PATH = '/api/objects/form';

const uploadNotFound = () => new AppError('NOT_FOUND', 'The upload was not found.');
const targetRefused = () => new AppError('FORBIDDEN', 'This upload link is not valid or has expired.');
const targetUsed = () => new AppError('FORBIDDEN', 'This upload link was already used.');

/** A multipart upload's staged parts, for drivers without native multipart: `<key>.parts/<uploadId>/<partNumber>`. */
const partsFolder = (key: string, uploadId: string) => `${key}.parts/${uploadId}/`;
const PART_KEY = /^(uploads\/[0-9a-f-]{36}\/[0-9a-f-]{36})\.parts\/([0-9a-f-]{36})\/(\d{1,5})$/;

/** An MD5 of the bytes that pass, as S3 answers a part's ETag. */
class Md5 extends Transform {
  private readonly hash = createHash('md5');
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    callback(null, chunk);
  }
  etag(): string {
    return `"${this.hash.digest('hex')}"`;
  }
}

/**
 * Staged uploads (`uploads/<memberId>/<uuid>`, private): where a member's browser may put bytes, and which staged
 * objects are theirs. S3 answers presigned requests itself; for the other drivers the gateway receives the bytes at
 * URLs it signs (HMAC, expiring) and streams them into storage with a byte counter. A link is used once because its
 * write is create-only: no memory of used links, so any gateway sharing the secret and the storage honours it.
 */
export class UploadStaging {
  private secret: Buffer = randomBytes(32);

  constructor(readonly storage: ObjectStorage) {}

  /** UPLOAD_SIGNING_SECRET; without it links are signed with a random secret of this process. */
  useSigningSecret(secret: string | null): void {
    if (secret) this.secret = Buffer.from(secret, 'utf8');
    else if (!this.storage.direct)
      logger.info('UPLOAD_SIGNING_SECRET is not set: upload links work only on this gateway process, and not after it restarts');
  }

  /** A fresh staging key of the member's. */
  newKey(memberId: string): string {
    return `uploads/${memberId}/${randomUUID()}`;
  }

  /** The staging key an uploadURL or a multipart Location names (query or not), if it is one of the member's; otherwise refused. */
  ownKeyFromUrl(memberId: string, imageURL: string): string {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(imageURL, 'http://relative.invalid').pathname);
    } catch {
      throw new AppError('VALIDATION_FAILED', 'imageURL is not an upload URL');
    }
    const key = /(uploads\/[0-9a-f-]{36}\/[0-9a-f-]{36})$/.exec(pathname)?.[1];
    if (!key) throw new AppError('VALIDATION_FAILED', 'imageURL is not an upload URL');
    return this.ownKey(memberId, key);
  }

  /** Every key a member names must be one of their own staging keys: never trust a client key. */
  ownKey(memberId: string, key: unknown): string {
    const match = typeof key === 'string' ? UPLOAD_KEY_PATTERN.exec(key) : null;
    if (!match || match[1] !== memberId) throw uploadNotFound();
    return key as string;
  }

  /** A single PUT target for a new staged object. */
  async createTarget(memberId: string, origin: string): Promise<{ uploadURL: string; key: string; expiresAt: Date }> {
    const key = this.newKey(memberId);
    const expiresAt = new Date(Date.now() + UPLOAD_TARGET_TTL_SECONDS * 1000);
    const uploadURL = this.storage.direct
      ? await this.storage.direct.presignPut(key, UPLOAD_TARGET_TTL_SECONDS)
      : this.signedUrl(origin, key, expiresAt);
    return { uploadURL, key, expiresAt };
  }

  /** Uppy's `s3/params`: a form POST (S3's presigned POST, or the gateway's own form target), size-limited. */
  async formParams(memberId: string, origin: string) {
    const key = this.newKey(memberId);
    if (this.storage.direct) {
      const post = await this.storage.direct.presignPost(key, UPLOAD_MAX_BYTES, UPLOAD_TARGET_TTL_SECONDS);
      return { method: 'POST', url: post.url, fields: post.fields, headers: {} };
    }
    const expires = String(Date.now() + UPLOAD_TARGET_TTL_SECONDS * 1000);
    return {
      method: 'POST',
      url: `${origin}${FORM_UPLOAD_PATH}`,
      fields: { key, expires, signature: this.sign(key, expires) },
      headers: {},
    };
  }

  async createMultipart(memberId: string): Promise<{ uploadId: string; key: string }> {
    const key = this.newKey(memberId);
    const uploadId = this.storage.direct ? await this.storage.direct.createMultipart(key) : randomUUID();
    return { uploadId, key };
  }

  async signPart(
    memberId: string,
    origin: string,
    key: unknown,
    uploadId: unknown,
    partNumber: unknown,
  ): Promise<{ url: string; expires: number }> {
    const number = Number(partNumber);
    if (typeof key !== 'string' || !key || typeof uploadId !== 'string' || !uploadId || !Number.isInteger(number) || number < 1) {
      throw new AppError('VALIDATION_FAILED', 'Cannot sign without a key, an uploadId, and a partNumber');
    }
    if (number > MAX_PARTS) throw new AppError('VALIDATION_FAILED', `partNumber must be between 1 and ${MAX_PARTS}`);
    const own = this.ownKey(memberId, key);
    const id = this.uploadId(uploadId);
    if (this.storage.direct) {
      return { url: await this.storage.direct.presignPart(own, id, number, UPLOAD_TARGET_TTL_SECONDS), expires: UPLOAD_TARGET_TTL_SECONDS };
    }
    const expiresAt = new Date(Date.now() + UPLOAD_TARGET_TTL_SECONDS * 1000);
    return { url: this.signedUrl(origin, `${partsFolder(own, id)}${number}`, expiresAt), expires: UPLOAD_TARGET_TTL_SECONDS };
  }

  async listParts(memberId: string, key: unknown, uploadId: unknown) {
    const own = this.ownKey(memberId, key);
    const id = this.uploadId(uploadId);
    if (this.storage.direct) return this.storage.direct.listParts(own, id);
    const parts = await this.storage.list(partsFolder(own, id));
    if (parts.length > MAX_PARTS) throw new AppError('VALIDATION_FAILED', 'Too many parts');
    const listed = [];
    for (const part of parts) {
      const object = await this.storage.openStream(part.key);
      if (!object) continue;
      const md5 = new Md5();
      for await (const chunk of object.stream.pipe(md5)) void chunk;
      listed.push({ PartNumber: Number(part.key.slice(part.key.lastIndexOf('/') + 1)), Size: part.size, ETag: md5.etag() });
    }
    return listed.sort((a, b) => a.PartNumber - b.PartNumber);
  }

  /** Joins the parts into the staged object; past UPLOAD_MAX_BYTES in all, nothing is kept (413; for S3, at registration). */
  async completeMultipart(memberId: string, key: unknown, uploadId: unknown, parts: unknown): Promise<string> {
    const own = this.ownKey(memberId, key);
    const id = this.uploadId(uploadId);
    const named = Array.isArray(parts) ? parts : [];
    const wanted = named.map((part: { PartNumber?: unknown; ETag?: unknown }) => ({
      PartNumber: Number(part?.PartNumber),
      ETag: String(part?.ETag ?? ''),
    }));
    if (
      wanted.length === 0 ||
      wanted.length > MAX_PARTS ||
      wanted.some((part) => !Number.isInteger(part.PartNumber) || part.PartNumber < 1)
    ) {
      throw new AppError('VALIDATION_FAILED', 'Send the parts, each with its PartNumber and ETag');
    }
    wanted.sort((a, b) => a.PartNumber - b.PartNumber);
    if (this.storage.direct) {
      // S3 checks the parts itself; the joined object's size is checked by media when it is registered (413, then removed).
      await this.storage.direct.completeMultipart(own, id, wanted);
      return own;
    }
    const stored = await this.listParts(memberId, own, id);
    const total = stored.filter((part) => wanted.some((w) => w.PartNumber === part.PartNumber)).reduce((sum, part) => sum + part.Size, 0);
    if (total > UPLOAD_MAX_BYTES) {
      await this.abortMultipart(memberId, own, id);
      throw new AppError('PAYLOAD_TOO_LARGE', 'Each photo must be at most 10 MB.');
    }
    for (const part of wanted) {
      const found = stored.find((candidate) => candidate.PartNumber === part.PartNumber);
      if (!found || found.ETag.replace(/"/g, '') !== part.ETag.replace(/"/g, '')) {
        throw new AppError('VALIDATION_FAILED', `Part ${part.PartNumber} was not uploaded`);
      }
    }
    const storage = this.storage;
    const joined = Readable.from(
      (async function* () {
        for (const part of wanted) {
          const object = await storage.openStream(`${partsFolder(own, id)}${part.PartNumber}`);
          if (!object) throw new AppError('VALIDATION_FAILED', `Part ${part.PartNumber} was not uploaded`);
          yield* object.stream;
        }
      })(),
    );
    try {
      await this.storage.putStream(own, joined, UPLOAD_MAX_BYTES);
    } catch (error) {
      if (error instanceof ObjectTooLargeError) throw new AppError('PAYLOAD_TOO_LARGE', 'Each photo must be at most 10 MB.');
      throw error;
    } finally {
      await this.removeParts(own, id);
    }
    return own;
  }

  async abortMultipart(memberId: string, key: unknown, uploadId: unknown): Promise<void> {
    const own = this.ownKey(memberId, key);
    const id = this.uploadId(uploadId);
    if (this.storage.direct) return this.storage.direct.abortMultipart(own, id);
    await this.removeParts(own, id);
  }

  /**
   * Receives the bytes of a signed gateway target (a whole object, or a part) into storage, counted as they come: past
   * UPLOAD_MAX_BYTES nothing is kept and the rest of the body is read and dropped, so the client gets its 413. Answers the ETag.
   */
  async receive(key: string, expires: unknown, signature: unknown, body: Readable): Promise<string> {
    this.verify(key, expires, signature);
    return this.store(key, body);
  }

  /** The form target: the fields name the key and carry its signature. */
  async receiveForm(fields: Record<string, string>, file: Readable): Promise<string> {
    const key = fields.key ?? '';
    if (!UPLOAD_KEY_PATTERN.test(key)) throw targetRefused();
    this.verify(key, fields.expires, fields.signature);
    await this.store(key, file);
    return key;
  }

  /** Removes staged objects a refused request left (a staged object is only ever read by media, which removes it). */
  async discard(key: string): Promise<void> {
    await this.storage.delete(key).catch((error: unknown) => logger.warn({ key, err: error }, 'staged upload not removed'));
  }

  /** Create-only, so a link's second write is refused (a write that failed kept nothing, so it may be sent again). */
  private async store(key: string, body: Readable): Promise<string> {
    const md5 = new Md5();
    try {
      await this.storage.putStream(key, body.pipe(md5), UPLOAD_MAX_BYTES, { createOnly: true });
      return md5.etag();
    } catch (error) {
      // A refusal before the first byte leaves the body piped (and soon paused): detached now, the route can drain it.
      body.unpipe(md5);
      md5.destroy();
      if (error instanceof ObjectTooLargeError) throw new AppError('PAYLOAD_TOO_LARGE', 'Each photo must be at most 10 MB.');
      if (error instanceof ObjectExistsError) throw targetUsed();
      throw error;
    }
  }

  /** Checks a gateway target's signature and expiry. */
  private verify(key: string, expires: unknown, signature: unknown): void {
    const match = UPLOAD_KEY_PATTERN.test(key) || PART_KEY.test(key);
    const expiresAt = Number(expires);
    if (!match || typeof signature !== 'string' || !Number.isFinite(expiresAt)) throw targetRefused();
    const expected = Buffer.from(this.sign(key, String(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw targetRefused();
    if (expiresAt < Date.now()) throw targetRefused();
  }

  private signedUrl(origin: string, key: string, expiresAt: Date): string {
    const expires = String(expiresAt.getTime());
    return `${origin}${UPLOAD_PATH}/${key}?expires=${expires}&signature=${this.sign(key, expires)}`;
  }

  private sign(key: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('base64url');
  }

  private uploadId(uploadId: unknown): string {
    if (typeof uploadId !== 'string' || !uploadId) throw new AppError('VALIDATION_FAILED', 'uploadId is required');
    if (this.storage.direct) {
      if (uploadId.length > 1024 || !/^[\w.~=+/-]+$/.test(uploadId)) throw uploadNotFound();
      return uploadId;
    }
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uploadId)) throw uploadNotFound();
    return uploadId;
  }

  private async removeParts(key: string, uploadId: string): Promise<void> {
    const parts = await this.storage.list(partsFolder(key, uploadId));
    await Promise.all(parts.map((part) => this.storage.delete(part.key)));
  }
}
