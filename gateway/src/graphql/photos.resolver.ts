import { Arg, Ctx, Field, GraphQLISODateTime, ID, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import {
  createUploadTarget,
  deleteSelfAiPhoto,
  listSelfAiPhotos,
  registerSelfAiPhoto,
  setProfilePicture,
} from '../uploads/uploads.operations';
import { type GatewayContext, callerOf } from './context';
import { UserType } from './types';

@ObjectType('UploadTarget', {
  description: 'Where the browser PUTs one photo: a presigned storage URL, or a signed single-use gateway URL.',
})
class UploadTargetType {
  @Field(() => String) uploadURL!: string;
  @Field(() => GraphQLISODateTime) expiresAt!: string;
}

// Not a Node: `node(id:)` is open to access tokens, and a member's photos are reached only through their own fields.
@ObjectType('SelfAiPhoto', {
  description: "One of the member's own photos for Self-AI; its files are served to the member only.",
})
class SelfAiPhotoType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'The re-encoded photo (no metadata), for its owner only.' }) url!: string;
  @Field(() => String, { description: 'A small WebP of the photo, for its owner only.' }) thumbnailUrl!: string;
  @Field(() => GraphQLISODateTime) createdAt!: string;
}

@InputType('SelfAiAttestationInput', { description: 'The member confirms the photos show them and that they are 18 or older.' })
class SelfAiAttestationInput {
  @Field(() => Boolean) ofSelf!: boolean;
  @Field(() => Boolean) adult!: boolean;
}

/** Self-AI photos and profile pictures: queries and mutations over the upload operations. */
@Resolver()
export class PhotosResolver {
  @Mutation(() => UploadTargetType, { description: 'A new upload target for one photo (at most 10485760 bytes, JPEG or PNG).' })
  createUploadTarget(@Ctx() context: GatewayContext): Promise<UploadTargetType> {
    return createUploadTarget(context, callerOf(context), '');
  }

  @Mutation(() => SelfAiPhotoType, {
    description:
      'Checks the uploaded photo (size, JPEG/PNG, dimensions), re-encodes it without metadata and keeps it with the attestation. Refusals: PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, INVALID_IMAGE; UNAVAILABLE (with retryAfterSeconds) while the server is busy with other photos, the upload kept for a retry.',
  })
  registerSelfAiPhoto(
    @Ctx() context: GatewayContext,
    @Arg('imageURL', () => String) imageURL: string,
    @Arg('attestation', () => SelfAiAttestationInput) attestation: SelfAiAttestationInput,
  ): Promise<SelfAiPhotoType> {
    return registerSelfAiPhoto(context, callerOf(context), { imageURL, attestation: { ...attestation } });
  }

  @Query(() => [SelfAiPhotoType], { description: "The member's Self-AI photos, newest first." })
  mySelfAiPhotos(@Ctx() context: GatewayContext): Promise<SelfAiPhotoType[]> {
    return listSelfAiPhotos(context, callerOf(context));
  }

  @Mutation(() => ID, { description: 'Deletes the photo and every file made from it.' })
  deleteSelfAiPhoto(@Ctx() context: GatewayContext, @Arg('id', () => ID) id: string): Promise<string> {
    return deleteSelfAiPhoto(context, callerOf(context), id);
  }

  @Mutation(() => UserType, { description: 'Makes an uploaded photo the profile picture (small public square renditions).' })
  setProfilePicture(@Ctx() context: GatewayContext, @Arg('imageURL', () => String) imageURL: string): Promise<UserType> {
    return setProfilePicture(context, callerOf(context), { imageURL });
  }
}
