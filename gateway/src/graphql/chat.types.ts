import { CHAT_PROVIDER_KINDS, type ChatProviderKind, type ProviderSource } from '@app/schema';
import { contractEnum } from './contract-enum';
import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PromptReportType, SamplerSettingsInputType, SamplerSettingsType } from './chat-settings.types';
import { ContentRatingType, ModerationStateType } from './moderation.types';
import { NodeType } from './types';

export enum MessageRoleType {
  USER = 'user',
  ASSISTANT = 'assistant',
}
registerEnumType(MessageRoleType, { name: 'MessageRole' });

export enum MessageStatusType {
  COMPLETE = 'complete',
  STREAMING = 'streaming',
  FAILED = 'failed',
  CANCELLED = 'cancelled',
}
registerEnumType(MessageStatusType, {
  name: 'MessageStatus',
  description: 'streaming while the reply is being written; failed replies were refunded.',
});

export enum ConversationUpdateKind {
  TYPING = 'typing',
  DELTA = 'delta',
  MESSAGE = 'message',
  BRANCH = 'branch',
  DELETED = 'deleted',
}
registerEnumType(ConversationUpdateKind, { name: 'ConversationUpdateType' });

export enum CardFormat {
  PNG = 'png',
  JSON_V2 = 'json_v2',
  JSON_V3 = 'json_v3',
}
registerEnumType(CardFormat, { name: 'CharacterCardFormat', description: 'PNG carries both V2 (chara) and V3 (ccv3) data.' });

@ObjectType('Swipe', { description: 'One version of a message: the message itself or a sibling (same parent, same role).' })
export class SwipeType {
  @Field(() => ID, { description: 'The message that is this version.' }) id!: string;
  @Field(() => String) content!: string;
  @Field(() => MessageStatusType) status!: MessageStatusType;
  @Field(() => String, { nullable: true }) model!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: string;
}

@ObjectType('Message', { implements: NodeType })
export class MessageType {
  @Field(() => ID) id!: string;
  @Field(() => ID) conversationId!: string;
  @Field(() => MessageRoleType) role!: MessageRoleType;
  @Field(() => String, { description: 'The selected version; partial while streaming.' }) content!: string;
  @Field(() => MessageStatusType) status!: MessageStatusType;
  @Field(() => String, { nullable: true, description: "The model that wrote the reply; 'demo' for the scripted demo responder." })
  model!: string | null;
  @Field(() => String, { nullable: true }) errorCode!: string | null;
  @Field(() => ID, { nullable: true, description: 'The message this one follows; null for the first message of a branch.' })
  parentId!: string | null;
  @Field(() => Int, { description: "This message's place among its versions (`swipes`)." }) swipeIndex!: number;
  @Field(() => Int) swipeCount!: number;
  @Field(() => [SwipeType], { description: 'Its versions: its siblings of the same role, itself included, oldest first.' })
  swipes!: SwipeType[];
  @Field(() => Boolean, { description: 'Written by the member as a new version of a reply, rather than generated.' })
  edited!: boolean;
  @Field(() => PromptReportType, { nullable: true, description: 'For a generated reply: what made it into its prompt.' })
  promptReport!: PromptReportType | null;
  @Field(() => ModerationStateType, { description: 'REMOVED: a moderator removed this reply; its text is not served.' })
  moderationState!: ModerationStateType;
  @Field(() => GraphQLISODateTime) createdAt!: string;
  @Field(() => GraphQLISODateTime) updatedAt!: string;
}

/** Relay paging arguments: `first` after `after` forwards, or `last` before `before` backwards; not both `first` and `last`. */
@ArgsType()
export class PageArgsType {
  @Field(() => Int, { nullable: true, description: 'Items from the start of the window (1-100).' }) first?: number | null;
  @Field(() => String, { nullable: true, description: 'A cursor: the window starts after it.' }) after?: string | null;
  @Field(() => Int, { nullable: true, description: 'Items from the end of the window (1-100).' }) last?: number | null;
  @Field(() => String, { nullable: true, description: 'A cursor: the window ends before it.' }) before?: string | null;
}

@ObjectType('PageInfo')
export class PageInfoType {
  @Field(() => Boolean) hasPreviousPage!: boolean;
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => String, { nullable: true }) startCursor!: string | null;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

@ObjectType('MessageEdge')
export class MessageEdgeType {
  @Field(() => String) cursor!: string;
  @Field(() => MessageType) node!: MessageType;
}

@ObjectType('MessageConnection', { description: 'Newest messages first page; page backwards with `before: startCursor`.' })
export class MessageConnectionType {
  @Field(() => [MessageEdgeType]) edges!: MessageEdgeType[];
  @Field(() => [MessageType]) nodes!: MessageType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
}

@ObjectType('Conversation', { implements: NodeType })
export class ConversationType {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => ID, { nullable: true }) characterId!: string | null;
  @Field(() => String, { nullable: true }) characterName!: string | null;
  @Field(() => ID, { nullable: true, description: 'The last message of the branch shown (the messages query reads that branch).' })
  activeLeafId!: string | null;
  @Field(() => SamplerSettingsType, { nullable: true, description: "Its own sampler settings, over its character's." })
  sampling!: SamplerSettingsType | null;
  @Field(() => String, { nullable: true, description: 'A model of chatModels instead of the default.' }) model!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: string;
  @Field(() => GraphQLISODateTime) updatedAt!: string;
}

@ObjectType('ConversationEdge')
export class ConversationEdgeType {
  @Field(() => String) cursor!: string;
  @Field(() => ConversationType) node!: ConversationType;
}

@ObjectType('ConversationConnection', {
  description: 'Forwards with `first` and `after: pageInfo.endCursor`, backwards with `last` and `before: pageInfo.startCursor`.',
})
export class ConversationConnectionType {
  @Field(() => [ConversationEdgeType]) edges!: ConversationEdgeType[];
  @Field(() => [ConversationType]) nodes!: ConversationType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int, { description: 'All my conversations, not just this page.' }) totalCount!: number;
}

@ObjectType('SendMessagePayload')
export class SendMessagePayloadType {
  @Field(() => MessageType) userMessage!: MessageType;
  @Field(() => MessageType, { description: 'Streaming at first; follow conversationUpdates for its text.' }) assistantMessage!: MessageType;
}

@ObjectType('ConversationUpdate', { description: 'A live change in a conversation.' })
export class ConversationUpdateType {
  @Field(() => ConversationUpdateKind) type!: ConversationUpdateKind;
  @Field(() => ID) conversationId!: string;
  @Field(() => Boolean, { nullable: true, description: 'typing: a reply is being written.' }) typing?: boolean | null;
  @Field(() => ID, { nullable: true }) messageId?: string | null;
  @Field(() => Int, { nullable: true }) swipeIndex?: number | null;
  @Field(() => Int, { nullable: true, description: 'delta: where `text` starts in the reply.' }) offset?: number | null;
  @Field(() => String, { nullable: true }) text?: string | null;
  @Field(() => MessageType, { nullable: true }) message?: MessageType | null;
  @Field(() => ID, { nullable: true, description: 'branch: the last message of the branch now shown; read the messages again.' })
  activeLeafId?: string | null;
}

@ObjectType('EditMessagePayload')
export class EditMessagePayloadType {
  @Field(() => MessageType, { description: 'The new version; the original stays as a sibling.' }) message!: MessageType;
  @Field(() => MessageType, { nullable: true, description: "The reply to an edited member's message, streaming at first." })
  reply!: MessageType | null;
}

@ObjectType('DeleteMessagePayload')
export class DeleteMessagePayloadType {
  @Field(() => ConversationType) conversation!: ConversationType;
  @Field(() => Int, { description: 'Messages deleted: the message and every message after it on its branches.' }) deleted!: number;
}

@ObjectType('Personality')
export class PersonalityType {
  @Field(() => [String]) traits!: string[];
}

@ObjectType('Character', { implements: NodeType })
export class CharacterType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true, description: 'Avatar image URL (from an imported card).' }) avatar!: string | null;
  @Field(() => PersonalityType) personality!: PersonalityType;
  @Field(() => Boolean) isPublic!: boolean;
  @Field(() => Boolean, { description: 'True when the signed-in member owns it.' }) isMine!: boolean;
  @Field(() => ContentRatingType) rating!: ContentRatingType;
  @Field(() => ModerationStateType, { description: 'HIDDEN: out of public view by a moderator (seen by its owner only).' })
  moderationState!: ModerationStateType;
  @Field(() => String) scenario!: string;
  @Field(() => String) greeting!: string;
  @Field(() => String) exampleDialogue!: string;
  @Field(() => String) systemPrompt!: string;
  @Field(() => SamplerSettingsType, { nullable: true, description: 'How its replies are sampled.' }) sampling!: SamplerSettingsType | null;
  @Field(() => [String]) alternateGreetings!: string[];
  @Field(() => [String]) tags!: string[];
  @Field(() => String) creator!: string;
  @Field(() => GraphQLISODateTime) createdAt!: string;
  @Field(() => GraphQLISODateTime) updatedAt!: string;
}

@ObjectType('CharacterEdge')
export class CharacterEdgeType {
  @Field(() => String) cursor!: string;
  @Field(() => CharacterType) node!: CharacterType;
}

@ObjectType('CharacterConnection', {
  description: 'Forwards with `first` and `after: pageInfo.endCursor`, backwards with `last` and `before: pageInfo.startCursor`.',
})
export class CharacterConnectionType {
  @Field(() => [CharacterEdgeType]) edges!: CharacterEdgeType[];
  @Field(() => [CharacterType]) nodes!: CharacterType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int, {
    nullable: true,
    description: 'All the items of the list, not just this page; null for public characters (not counted).',
  })
  totalCount!: number | null;
}

@InputType('CharacterInput')
export class CharacterInputType {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [String], { nullable: true }) personalityTraits?: string[] | null;
  @Field(() => Boolean, { nullable: true, description: 'Private by default.' }) isPublic?: boolean | null;
  @Field(() => ContentRatingType, { nullable: true, description: 'How explicit it is; EXPLICIT when not given.' })
  rating?: ContentRatingType | null;
  @Field(() => String, { nullable: true }) scenario?: string | null;
  @Field(() => String, { nullable: true, description: 'The first message of a new chat.' }) greeting?: string | null;
  @Field(() => String, { nullable: true }) exampleDialogue?: string | null;
  @Field(() => String, { nullable: true }) systemPrompt?: string | null;
  @Field(() => SamplerSettingsInputType, { nullable: true, description: "How its replies are sampled; a conversation's own win." })
  sampling?: SamplerSettingsInputType | null;
}

@InputType('CharacterPatchInput')
export class CharacterPatchInputType {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => [String], { nullable: true }) personalityTraits?: string[] | null;
  @Field(() => Boolean, { nullable: true }) isPublic?: boolean | null;
  @Field(() => ContentRatingType, { nullable: true }) rating?: ContentRatingType | null;
  @Field(() => String, { nullable: true }) scenario?: string | null;
  @Field(() => String, { nullable: true }) greeting?: string | null;
  @Field(() => String, { nullable: true }) exampleDialogue?: string | null;
  @Field(() => String, { nullable: true }) systemPrompt?: string | null;
  @Field(() => SamplerSettingsInputType, { nullable: true, description: 'null leaves them as they are; {} clears them.' })
  sampling?: SamplerSettingsInputType | null;
}

@ObjectType('CharacterCardFile')
export class CharacterCardFileType {
  @Field(() => String) fileName!: string;
  @Field(() => String) contentType!: string;
  @Field(() => String) bodyBase64!: string;
}

export const ChatProviderKindType = contractEnum('ChatProviderKind', CHAT_PROVIDER_KINDS, {
  valueDescriptions: {
    demo: 'The scripted offline demo responder (not AI).',
    'openai-compatible': 'A server speaking the OpenAI chat API.',
  },
});

@ObjectType('ChatProvider', { description: 'What writes replies. isDemo: the scripted offline demo responder, not AI.' })
export class ChatProviderType {
  @Field(() => ChatProviderKindType) kind!: ChatProviderKind;
  @Field(() => String) model!: string;
  @Field(() => Boolean) isDemo!: boolean;
  @Field(() => String, {
    description: "configured (set by the operator), detected (found on the server's own computer at start) or demo.",
  })
  source!: ProviderSource;
  @Field(() => String, { nullable: true, description: "The server product when known, e.g. 'Ollama', 'LM Studio', 'llama.cpp', 'vLLM'." })
  server!: string | null;
}
