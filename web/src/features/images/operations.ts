import { graphql } from '../../gql';

export const ImageFieldsFragment = graphql(`
  fragment ImageFields on Image {
    id
    imageUrl
    prompt
    model
    isDemo
    isPublic
    isMine
    rating
    moderationState
    likes
    likedByMe
    createdAt
    width
    height
    placeholder
    srcSet
    renditions {
      width
      height
      url
    }
    settings {
      size
      quality
      style
      negativePrompt
      seed
      steps
      cfgScale
      sampler
    }
    user {
      firstName
      lastName
    }
  }
`);

export const GenerationJobFieldsFragment = graphql(`
  fragment GenerationJobFields on GenerationJob {
    id
    status
    progress
    prompt
    errorCode
    errorMessage
    policyCategory
    createdAt
    updatedAt
    settings {
      size
      quality
      style
      negativePrompt
      seed
      steps
      cfgScale
      sampler
    }
    image {
      ...ImageFields
    }
  }
`);

/** Pages forwards through `edges` (merged by the cache's relay-style field policy, lib/apollo-client.ts). */
export const MyImagesDocument = graphql(`
  query MyImages($first: Int!, $after: String, $search: String) {
    myImages(first: $first, after: $after, search: $search) {
      edges {
        cursor
        node {
          ...ImageFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const PublicImagesDocument = graphql(`
  query PublicImages($first: Int!, $after: String, $search: String) {
    publicImages(first: $first, after: $after, search: $search) {
      edges {
        cursor
        node {
          ...ImageFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const ImageProviderDocument = graphql(`
  query ImageProvider {
    imageProvider {
      kind
      model
      isDemo
      advanced
      samplers
    }
  }
`);

export const ActiveGenerationsDocument = graphql(`
  query ActiveGenerations {
    activeGenerations {
      ...GenerationJobFields
    }
  }
`);

export const GenerationDocument = graphql(`
  query Generation($id: ID!) {
    generation(id: $id) {
      ...GenerationJobFields
    }
  }
`);

export const GenerationUpdatesDocument = graphql(`
  subscription GenerationUpdates {
    generationUpdates {
      ...GenerationJobFields
    }
  }
`);

export const GenerateImageDocument = graphql(`
  mutation GenerateImage($input: GenerateImageInput!) {
    generateImage(input: $input) {
      ...GenerationJobFields
    }
  }
`);

export const CancelGenerationDocument = graphql(`
  mutation CancelGeneration($id: ID!) {
    cancelGeneration(id: $id) {
      ...GenerationJobFields
    }
  }
`);

export const SetImageVisibilityDocument = graphql(`
  mutation SetImageVisibility($id: ID!, $isPublic: Boolean!, $rating: ContentRating) {
    setImageVisibility(id: $id, isPublic: $isPublic, rating: $rating) {
      ...ImageFields
    }
  }
`);

export const LikeImageDocument = graphql(`
  mutation LikeImage($id: ID!) {
    likeImage(id: $id) {
      ...ImageFields
    }
  }
`);

export const UnlikeImageDocument = graphql(`
  mutation UnlikeImage($id: ID!) {
    unlikeImage(id: $id) {
      ...ImageFields
    }
  }
`);

export const DeleteImageDocument = graphql(`
  mutation DeleteImage($id: ID!) {
    deleteImage(id: $id)
  }
`);
