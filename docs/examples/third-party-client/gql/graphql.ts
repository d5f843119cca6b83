/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type CharacterInput = {
  description?: string | null | undefined;
  exampleDialogue?: string | null | undefined;
  /** The first message of a new chat. */
  greeting?: string | null | undefined;
  /** Private by default. */
  isPublic?: boolean | null | undefined;
  name: string;
  personalityTraits?: Array<string> | null | undefined;
  /** How explicit it is; EXPLICIT when not given. */
  rating?: ContentRating | null | undefined;
  /** How its replies are sampled; a conversation's own win. */
  sampling?: SamplerSettingsInput | null | undefined;
  scenario?: string | null | undefined;
  systemPrompt?: string | null | undefined;
};

/** How explicit public content is. Visitors see SAFE only; members choose what they see. */
export type ContentRating =
  | 'EXPLICIT'
  | 'SAFE'
  | 'SUGGESTIVE';

export type ConversationUpdateType =
  | 'BRANCH'
  | 'DELETED'
  | 'DELTA'
  | 'MESSAGE'
  | 'TYPING';

export type MessageRole =
  | 'ASSISTANT'
  | 'USER';

/** streaming while the reply is being written; failed replies were refunded. */
export type MessageStatus =
  | 'CANCELLED'
  | 'COMPLETE'
  | 'FAILED'
  | 'STREAMING';

/** A free-plan monthly allowance. */
export type QuotaKind =
  | 'CHARACTER'
  | 'CHAT'
  | 'IMAGE'
  | 'STORY';

export type SamplerSettingsInput = {
  /** Settings passed through to servers that take more (min_p, top_k, repetition_penalty…): lower-case names, numbers, booleans or short texts. */
  extras?: Record<string, unknown> | null | undefined;
  frequencyPenalty?: number | null | undefined;
  maxTokens?: number | null | undefined;
  presencePenalty?: number | null | undefined;
  stop?: Array<string> | null | undefined;
  temperature?: number | null | undefined;
  topP?: number | null | undefined;
};

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { me: { email: string, tokens: number } | null, myQuotas: Array<{ kind: QuotaKind, used: number, limit: number }> };

export type PublicImagesQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type PublicImagesQuery = { publicImages: { nodes: Array<{ id: string, prompt: string, imageUrl: string, width: number, height: number, user: { firstName: string | null, lastName: string | null } | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CharactersQueryVariables = Exact<{
  first: number;
}>;


export type CharactersQuery = { publicCharacters: { nodes: Array<{ id: string, name: string, description: string | null }> }, characters: { nodes: Array<{ id: string, name: string, description: string | null }> } };

export type CreateCharacterMutationVariables = Exact<{
  input: CharacterInput;
}>;


export type CreateCharacterMutation = { createCharacter: { id: string, name: string, description: string | null } };

export type StartConversationMutationVariables = Exact<{
  characterId: string | number;
  title: string;
}>;


export type StartConversationMutation = { createConversation: { id: string, title: string } };

export type ReplyMessageFragment = { id: string, role: MessageRole, status: MessageStatus, content: string, errorCode: string | null };

export type SendMessageMutationVariables = Exact<{
  conversationId: string | number;
  content: string;
}>;


export type SendMessageMutation = { sendMessage: { userMessage: { id: string }, assistantMessage: { id: string, role: MessageRole, status: MessageStatus, content: string, errorCode: string | null } } };

export type MessageQueryVariables = Exact<{
  id: string | number;
}>;


export type MessageQuery = { message: { id: string, role: MessageRole, status: MessageStatus, content: string, errorCode: string | null } };

export type ConversationUpdatesSubscriptionVariables = Exact<{
  conversationId: string | number;
}>;


export type ConversationUpdatesSubscription = { conversationUpdates: { type: ConversationUpdateType, messageId: string | null, swipeIndex: number | null, offset: number | null, text: string | null, typing: boolean | null, message: { id: string, role: MessageRole, status: MessageStatus, content: string, errorCode: string | null } | null } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const ReplyMessageFragmentDoc = new TypedDocumentString(`
    fragment ReplyMessage on Message {
  id
  role
  status
  content
  errorCode
}
    `, {"fragmentName":"ReplyMessage"}) as unknown as TypedDocumentString<ReplyMessageFragment, unknown>;
export const ViewerDocument = new TypedDocumentString(`
    query Viewer {
  me {
    email
    tokens
  }
  myQuotas {
    kind
    used
    limit
  }
}
    `) as unknown as TypedDocumentString<ViewerQuery, ViewerQueryVariables>;
export const PublicImagesDocument = new TypedDocumentString(`
    query PublicImages($first: Int!, $after: String) {
  publicImages(first: $first, after: $after, order: NEWEST) {
    nodes {
      id
      prompt
      imageUrl
      width
      height
      user {
        firstName
        lastName
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<PublicImagesQuery, PublicImagesQueryVariables>;
export const CharactersDocument = new TypedDocumentString(`
    query Characters($first: Int!) {
  publicCharacters(first: $first) {
    nodes {
      id
      name
      description
    }
  }
  characters(first: $first) {
    nodes {
      id
      name
      description
    }
  }
}
    `) as unknown as TypedDocumentString<CharactersQuery, CharactersQueryVariables>;
export const CreateCharacterDocument = new TypedDocumentString(`
    mutation CreateCharacter($input: CharacterInput!) {
  createCharacter(input: $input) {
    id
    name
    description
  }
}
    `) as unknown as TypedDocumentString<CreateCharacterMutation, CreateCharacterMutationVariables>;
export const StartConversationDocument = new TypedDocumentString(`
    mutation StartConversation($characterId: ID!, $title: String!) {
  createConversation(characterId: $characterId, title: $title) {
    id
    title
  }
}
    `) as unknown as TypedDocumentString<StartConversationMutation, StartConversationMutationVariables>;
export const SendMessageDocument = new TypedDocumentString(`
    mutation SendMessage($conversationId: ID!, $content: String!) {
  sendMessage(conversationId: $conversationId, content: $content) {
    userMessage {
      id
    }
    assistantMessage {
      ...ReplyMessage
    }
  }
}
    fragment ReplyMessage on Message {
  id
  role
  status
  content
  errorCode
}`) as unknown as TypedDocumentString<SendMessageMutation, SendMessageMutationVariables>;
export const MessageDocument = new TypedDocumentString(`
    query Message($id: ID!) {
  message(id: $id) {
    ...ReplyMessage
  }
}
    fragment ReplyMessage on Message {
  id
  role
  status
  content
  errorCode
}`) as unknown as TypedDocumentString<MessageQuery, MessageQueryVariables>;
export const ConversationUpdatesDocument = new TypedDocumentString(`
    subscription ConversationUpdates($conversationId: ID!) {
  conversationUpdates(conversationId: $conversationId) {
    type
    messageId
    swipeIndex
    offset
    text
    typing
    message {
      ...ReplyMessage
    }
  }
}
    fragment ReplyMessage on Message {
  id
  role
  status
  content
  errorCode
}`) as unknown as TypedDocumentString<ConversationUpdatesSubscription, ConversationUpdatesSubscriptionVariables>;