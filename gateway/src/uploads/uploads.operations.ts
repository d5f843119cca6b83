import type { Readable } from 'node:stream';
import { AVATAR_SIZES, AppError, type PhotoVariant, SelfAiAttestation, type SelfAiPhoto } from '@app/schema';

import { z } from 'zod';
import { type Caller, type Services, member } from '../operations/caller';
import { foundId, parseInput } from '../operations/input';

const PHOTO_NOT_FOUND = 'Photo not found';
const ATTESTATION_REQUIRED = 'Confirm that the photos are of you and that you are 18 or older.';

const Attested = z.object({
  attestation: SelfAiAttestation.nullish().transform((value, context) => {
    if (!value) context.addIssue({ code: 'custom', message: ATTESTATION_REQUIRED });
    return value!;
  }),
});
const Picture = z.object({
  imageURL: z.string({ error: 'Cannot upload to an undefined URL' }).min(1, 'Cannot upload to an undefined URL').max(4096),
});

/** A photo as both APIs show it: its bytes and thumbnail are served to its owner only. */
export const presentPhoto = (photo: SelfAiPhoto) => ({
  id: photo.id,
  url: `/api/self-ai/photos/${photo.id}/photo`,
  thumbnailUrl: `/api/self-ai/photos/${photo.id}/thumb`,
  createdAt: photo.createdAt,
});
export type PresentedPhoto = ReturnType<typeof presentPhoto>;

/** The profile picture's URL as identity stores it: the middle size of the ladder (the nav avatar asks for it). */
export const avatarUrl = (avatarId: string, size: number = AVATAR_SIZES[1]) => `/api/media/avatars/${avatarId}/w${size}.webp`;

/** Counts against the member's and the address's hourly upload allowance. */
async function startUpload(services: Services, caller: Caller) {
  const user = member(caller);
  await services.media.uploadLimits.take(user.id, caller.clientIp);
  return user;
}

/** `origin` makes gateway targets absolute (REST); '' leaves them relative to the site (GraphQL). */
export async function createUploadTarget(services: Services, caller: Caller, origin: string) {
  const user = await startUpload(services, caller);
  const { uploadURL, expiresAt } = await services.media.uploads.createTarget(user.id, origin);
  return { uploadURL, expiresAt: expiresAt.toISOString() };
}

export async function uploadParams(services: Services, caller: Caller, origin: string) {
  const user = await startUpload(services, caller);
  return services.media.uploads.formParams(user.id, origin);
}

export async function createMultipartUpload(services: Services, caller: Caller) {
  const user = await startUpload(services, caller);
  return services.media.uploads.createMultipart(user.id);
}

export const signUploadPart = async (
  services: Services,
  caller: Caller,
  origin: string,
  key: unknown,
  uploadId: unknown,
  partNumber: unknown,
) => services.media.uploads.signPart(member(caller).id, origin, key, uploadId, partNumber);

export const listUploadParts = async (services: Services, caller: Caller, key: unknown, uploadId: unknown) =>
  services.media.uploads.listParts(member(caller).id, key, uploadId);

export async function completeMultipartUpload(
  services: Services,
  caller: Caller,
  origin: string,
  key: unknown,
  uploadId: unknown,
  parts: unknown,
) {
  const done = await services.media.uploads.completeMultipart(member(caller).id, key, uploadId, parts);
  return { location: `${origin}/api/objects/upload/${done}`, key: done };
}

export async function abortMultipartUpload(services: Services, caller: Caller, key: unknown, uploadId: unknown) {
  await services.media.uploads.abortMultipart(member(caller).id, key, uploadId);
  return {};
}

/** A signed gateway target (local and memory storage): no session needed, the signature is the permission. */
export const receiveUpload = (services: Services, key: string, expires: unknown, signature: unknown, body: Readable) =>
  services.media.uploads.receive(key, expires, signature, body);

export const receiveFormUpload = (services: Services, fields: Record<string, string>, file: Readable) =>
  services.media.uploads.receiveForm(fields, file);

/** The member's staged upload (named by its URL) becomes a Self-AI photo, with their attestation; media checks and re-encodes it. */
export async function registerSelfAiPhoto(services: Services, caller: Caller, input: { imageURL?: unknown; attestation?: unknown }) {
  const user = member(caller);
  const { imageURL } = parseInput(Picture, { imageURL: input.imageURL });
  const key = services.media.uploads.ownKeyFromUrl(user.id, imageURL);
  let attestation: SelfAiAttestation;
  try {
    ({ attestation } = parseInput(Attested, { attestation: input.attestation }));
  } catch (error) {
    // Without the member's word the photo is not kept: not even as a staged upload.
    await services.media.uploads.discard(key);
    throw error;
  }
  return presentPhoto(await services.media.registerSelfAiPhoto(user.id, key, attestation, caller.meta));
}

export async function listSelfAiPhotos(services: Services, caller: Caller) {
  return (await services.media.listSelfAiPhotos(member(caller).id, caller.meta)).map(presentPhoto);
}

export async function deleteSelfAiPhoto(services: Services, caller: Caller, id: string): Promise<string> {
  await services.media.deleteSelfAiPhoto(member(caller).id, foundId(id, PHOTO_NOT_FOUND), caller.meta);
  return id;
}

export async function openSelfAiPhotoFile(services: Services, caller: Caller, id: string, file: string) {
  const variant: PhotoVariant | null = file === 'photo' ? 'original' : file === 'thumb' ? 'thumb' : null;
  if (!variant) throw new AppError('NOT_FOUND', 'Not found');
  return services.media.openSelfAiPhotoFile(member(caller).id, foundId(id, PHOTO_NOT_FOUND), variant, caller.meta);
}

/** Re-encoded into small public square renditions; the member's profile then points at them (the previous picture's files go). */
export async function setProfilePicture(services: Services, caller: Caller, input: { imageURL?: unknown }) {
  const user = member(caller);
  const { imageURL } = parseInput(Picture, { imageURL: input.imageURL });
  const key = services.media.uploads.ownKeyFromUrl(user.id, imageURL);
  const { avatarId } = await services.media.setAvatar(user.id, key, caller.meta);
  return services.identity.updateProfile(user.id, { profileImageUrl: avatarUrl(avatarId) }, caller.meta);
}

/** Public avatar files: `w<size>.webp` of the fixed sizes only. */
export async function openAvatarFile(services: Services, id: string, file: string) {
  const size = Number(/^w(\d+)\.webp$/.exec(file)?.[1]);
  if (!(AVATAR_SIZES as readonly number[]).includes(size)) throw new AppError('NOT_FOUND', 'Not found');
  return services.media.openAvatarFile(foundId(id, 'Not found'), size);
}
