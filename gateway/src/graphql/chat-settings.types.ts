import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';

const EXTRAS =
  'Settings passed through to servers that take more (min_p, top_k, repetition_penalty…): lower-case names, numbers, booleans or short texts.';

@ObjectType('SamplerSettings', { description: "How replies are sampled; a field that is null takes the provider's default." })
export class SamplerSettingsType {
  @Field(() => Float, { nullable: true, description: '0 to 2.' }) temperature?: number | null;
  @Field(() => Float, { nullable: true, description: 'Above 0, at most 1.' }) topP?: number | null;
  @Field(() => Int, { nullable: true, description: "16 to 4096, never above the provider's own limit." }) maxTokens?: number | null;
  @Field(() => [String], { nullable: true, description: 'Up to 4 sequences that end a reply.' }) stop?: string[] | null;
  @Field(() => Float, { nullable: true, description: '-2 to 2.' }) presencePenalty?: number | null;
  @Field(() => Float, { nullable: true, description: '-2 to 2.' }) frequencyPenalty?: number | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRAS }) extras?: Record<string, number | boolean | string> | null;
}

@InputType('SamplerSettingsInput')
export class SamplerSettingsInputType {
  @Field(() => Float, { nullable: true }) temperature?: number | null;
  @Field(() => Float, { nullable: true }) topP?: number | null;
  @Field(() => Int, { nullable: true }) maxTokens?: number | null;
  @Field(() => [String], { nullable: true }) stop?: string[] | null;
  @Field(() => Float, { nullable: true }) presencePenalty?: number | null;
  @Field(() => Float, { nullable: true }) frequencyPenalty?: number | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRAS }) extras?: Record<string, unknown> | null;
}

@InputType('ConversationSettingsInput')
export class ConversationSettingsInputType {
  @Field(() => SamplerSettingsInputType, {
    nullable: true,
    description: "This conversation's own settings, over its character's; null or {} clears them; left out: unchanged.",
  })
  sampling?: SamplerSettingsInputType | null;
  @Field(() => String, { nullable: true, description: 'One of chatModels; null: the default; left out: unchanged.' })
  model?: string | null;
}

@ObjectType('ChatModels', { description: 'The models the chat provider lists; a conversation may use one instead of the default.' })
export class ChatModelsType {
  @Field(() => [String]) models!: string[];
  @Field(() => String) defaultModel!: string;
}

@ObjectType('MemberPersona', { description: 'Who the member plays in chats.' })
export class MemberPersonaType {
  @Field(() => String, { description: "The name set; '' uses the member's first name." }) name!: string;
  @Field(() => String, { description: 'What characters are told about the member.' }) description!: string;
  @Field(() => String, { description: 'What {{user}} stands for now.' }) displayName!: string;
}

@InputType('MemberPersonaInput')
export class MemberPersonaInputType {
  @Field(() => String, { description: "Up to 60 characters; '' uses the member's first name." }) name!: string;
  @Field(() => String, { description: 'Up to 1000 characters.' }) description!: string;
}

@ObjectType('PromptLoreEntry')
export class PromptLoreEntryType {
  @Field(() => String) label!: string;
  @Field(() => Int) tokens!: number;
  @Field(() => [String], { description: 'The keys found in the recent messages; empty for an entry that is always in.' })
  keys!: string[];
}

@ObjectType('PromptLoreSkipped')
export class PromptLoreSkippedType {
  @Field(() => String) label!: string;
  @Field(() => String, { description: 'budget, disabled or probability.' }) reason!: string;
}

@ObjectType('PromptReport', { description: "What made it into a reply's prompt (estimated tokens)." })
export class PromptReportType {
  @Field(() => Int) contextTokens!: number;
  @Field(() => Int, { description: 'Room kept for the reply.' }) replyTokens!: number;
  @Field(() => Int) promptTokens!: number;
  @Field(() => Int, { description: "The character's definitions, the member's persona and the instructions." }) characterTokens!: number;
  @Field(() => Int) summaryTokens!: number;
  @Field(() => Int) messagesIncluded!: number;
  @Field(() => Int, { description: 'Messages of the branch the prompt could draw on (the newest 200 at most).' }) messagesTotal!: number;
  @Field(() => Int) messageTokens!: number;
  @Field(() => Int, { nullable: true, description: 'The oldest message sent; older ones reach the model only through the summary.' })
  firstIncludedSeq!: number | null;
  @Field(() => [PromptLoreEntryType]) lore!: PromptLoreEntryType[];
  @Field(() => [PromptLoreSkippedType]) loreSkipped!: PromptLoreSkippedType[];
}
