import type { Bus, ObjectStorage, ObjectStream } from '@app/kit';
import {
  AppError,
  FINISHED_GENERATION_STATUSES,
  type GenerateImageInput,
  type GenerationJob,
  type ContentRating,
  type ImageVariant,
  type ModerationTarget,
  type PageArgs,
  type PhotoVariant,
  type RequestMeta,
  type SelfAiAttestation,
  mediaRpc,
} from '@app/schema';
import { SlidingWindowLimiter } from './http/rate-limit';
import { LIVE_TOPICS, type LiveHub } from './live-hub';
import { UploadLimits } from './uploads/upload-limits';
import { UploadStaging } from './uploads/upload-staging';

/** Checking and re-encoding a 10 MB photo takes a few seconds on a slow machine. */
const PHOTO_RPC_TIMEOUT_MS = 60_000;

/** The gateway's calls to the media service; GraphQL resolvers and REST handlers share them. */
export class MediaClient {
  private readonly perAddress: SlidingWindowLimiter;
  /** Members' uploads: where their browsers put bytes (the only writes the gateway makes to storage: staged objects). */
  readonly uploads: UploadStaging;
  readonly uploadLimits = new UploadLimits();

  constructor(
    private readonly bus: Bus,
    private readonly live: LiveHub,
    /** Reads bytes of keys the media service located after its access check; writes staged uploads only. */
    private readonly storage: ObjectStorage,
    private readonly waitTimeoutMs: number,
    generationsPerAddressPerMinute: number,
  ) {
    this.perAddress = new SlidingWindowLimiter(
      generationsPerAddressPerMinute,
      60_000,
      'Too many images are being generated from your network. Please wait a minute.',
    );
    this.uploads = new UploadStaging(storage);
  }

  registerSelfAiPhoto = (userId: string, key: string, attestation: SelfAiAttestation, meta: RequestMeta) =>
    this.bus.request(mediaRpc.registerSelfAiPhoto, { userId, key, attestation }, meta, PHOTO_RPC_TIMEOUT_MS);
  listSelfAiPhotos = async (userId: string, meta: RequestMeta) =>
    (await this.bus.request(mediaRpc.listSelfAiPhotos, { userId }, meta)).photos;
  deleteSelfAiPhoto = async (userId: string, photoId: string, meta: RequestMeta) =>
    (await this.bus.request(mediaRpc.deleteSelfAiPhoto, { userId, photoId }, meta)).ok;
  setAvatar = (userId: string, key: string, meta: RequestMeta) =>
    this.bus.request(mediaRpc.setAvatar, { userId, key }, meta, PHOTO_RPC_TIMEOUT_MS);

  /** A photo's file for its owner (media checks), opened as a stream; NOT_FOUND for anyone else and after deletion. */
  async openSelfAiPhotoFile(userId: string, photoId: string, variant: PhotoVariant, meta: RequestMeta) {
    const file = await this.bus.request(mediaRpc.locateSelfAiPhotoFile, { userId, photoId, variant }, meta);
    const object = await this.storage.openStream(file.key);
    if (!object) throw new AppError('NOT_FOUND', 'Photo not found');
    return { ...object, contentType: file.contentType };
  }

  /** Profile pictures are public: the id is random and the sizes fixed, so the key alone decides (no lookup). */
  async openAvatarFile(avatarId: string, size: number) {
    const object = await this.storage.openStream(`avatars/${avatarId}/w${size}.webp`);
    if (!object) throw new AppError('NOT_FOUND', 'Not found');
    return object;
  }

  /** Per member pace is checked by media; here, per client address, so many accounts on one address cannot flood the providers. */
  createGeneration = (userId: string, input: GenerateImageInput, meta: RequestMeta, clientIp: string) => {
    this.perAddress.take(clientIp);
    return this.bus.request(mediaRpc.createGeneration, { userId, input }, meta);
  };
  getGeneration = (userId: string, jobId: string, meta: RequestMeta) => this.bus.request(mediaRpc.getGeneration, { userId, jobId }, meta);
  activeGenerations = async (userId: string, meta: RequestMeta) =>
    (await this.bus.request(mediaRpc.listActiveGenerations, { userId }, meta)).jobs;
  cancelGeneration = (userId: string, jobId: string, meta: RequestMeta) =>
    this.bus.request(mediaRpc.cancelGeneration, { userId, jobId }, meta);
  providerInfo = (meta: RequestMeta) => this.bus.request(mediaRpc.providerInfo, {}, meta);
  listMyImages = (userId: string, page: PageArgs, meta: RequestMeta) => this.bus.request(mediaRpc.listMyImages, { userId, ...page }, meta);
  listPublicImages = (userId: string, page: PageArgs, ratings: ContentRating[], meta: RequestMeta) =>
    this.bus.request(mediaRpc.listPublicImages, { userId, ...page, ratings }, meta);
  getImage = (userId: string, imageId: string, ratings: ContentRating[], meta: RequestMeta) =>
    this.bus.request(mediaRpc.getImage, { userId, imageId, ratings }, meta);
  setVisibility = (userId: string, imageId: string, isPublic: boolean, rating: ContentRating | null, meta: RequestMeta) =>
    this.bus.request(mediaRpc.setVisibility, { userId, imageId, isPublic, rating }, meta);
  describeImages = async (imageIds: string[], meta: RequestMeta): Promise<ModerationTarget[]> =>
    (await this.bus.request(mediaRpc.describeImages, { imageIds }, meta)).targets;
  likeImage = (userId: string, imageId: string, meta: RequestMeta) => this.bus.request(mediaRpc.likeImage, { userId, imageId }, meta);
  unlikeImage = (userId: string, imageId: string, meta: RequestMeta) => this.bus.request(mediaRpc.unlikeImage, { userId, imageId }, meta);
  deleteImage = async (userId: string, imageId: string, meta: RequestMeta) =>
    (await this.bus.request(mediaRpc.deleteImage, { userId, imageId }, meta)).ok;

  /** A file of an image the viewer may see (anyone for public images), or NOT_FOUND. */
  /**
   * Checks that the viewer may see the file (media decides) and says how to serve it; `open` reads
   * it from storage as a stream, so a conditional request that ends in 304 never touches the bytes.
   */
  async locateImageFile(viewerId: string | null, imageId: string, variant: ImageVariant, ratings: ContentRating[], meta: RequestMeta) {
    return this.openable(await this.bus.request(mediaRpc.locateImageFile, { userId: viewerId, imageId, variant, ratings }, meta));
  }

  /** Moderators see an image's file in any state (the gateway checks the role). */
  async locateModeratedImageFile(imageId: string, variant: ImageVariant, meta: RequestMeta) {
    return this.openable(await this.bus.request(mediaRpc.locateModeratedImageFile, { imageId, variant }, meta));
  }

  private openable(file: { key: string; contentType: string; isPublic: boolean; fileName: string }) {
    const open = async (): Promise<ObjectStream> => {
      const object = await this.storage.openStream(file.key);
      if (!object) throw new AppError('NOT_FOUND', 'Image file not found');
      return object;
    };
    return { ...file, open };
  }

  /**
   * Starts a generation and waits for it to finish (the compatible REST call). Live updates answer at
   * once; a slow poll covers an update lost in transit.
   */
  async generateAndWait(userId: string, input: GenerateImageInput, meta: RequestMeta, clientIp: string): Promise<GenerationJob> {
    const updates = (await this.live.listen(LIVE_TOPICS.generation, userId)) as AsyncIterableIterator<GenerationJob>;
    try {
      const job = await this.createGeneration(userId, input, meta, clientIp);
      const deadline = Date.now() + this.waitTimeoutMs;
      let current = job;
      while (!FINISHED_GENERATION_STATUSES.includes(current.status)) {
        if (Date.now() >= deadline) {
          throw new AppError('TIMEOUT', 'The image is taking too long; it will appear in your creations when ready.');
        }
        const next = await Promise.race([
          updates.next(),
          new Promise<'poll'>((resolve) => setTimeout(() => resolve('poll'), 2_000).unref()),
        ]);
        if (next === 'poll') current = await this.getGeneration(userId, job.id, meta);
        else if (!next.done && next.value.id === job.id) current = next.value;
      }
      return current;
    } finally {
      await updates.return?.();
    }
  }
}
