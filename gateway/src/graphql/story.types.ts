import { STORY_ACTION_KINDS, STORY_GENRES, STORY_TONES, type StoryActionKind, type StoryGenre, type StoryTone } from '@app/schema';
import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { MessageStatusType, PageInfoType } from './chat.types';
import { contractEnum } from './contract-enum';
import { ModerationStateType } from './moderation.types';
import { NodeType } from './types';

export const StoryGenreType = contractEnum('StoryGenre', STORY_GENRES, { description: 'The genre a story is told in.' });
export const StoryToneType = contractEnum('StoryTone', STORY_TONES, { description: 'The mood a story is told in.' });
export const StoryActionKindType = contractEnum('StoryActionKind', STORY_ACTION_KINDS, {
  description: 'How the member reached a passage.',
  valueDescriptions: {
    opening: 'The start of the story (or another telling of it).',
    choice: 'One of the choices the passage before offered.',
    action: 'An action the member wrote.',
  },
});

export enum StoryUpdateKind {
  TYPING = 'typing',
  DELTA = 'delta',
  PASSAGE = 'passage',
  STORY = 'story',
  DELETED = 'deleted',
}
registerEnumType(StoryUpdateKind, { name: 'StoryUpdateKind' });

@ObjectType('Story', { implements: NodeType, description: 'An interactive story: a tree of passages, branching at every choice.' })
export class StoryType {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String) premise!: string;
  @Field(() => StoryGenreType, { nullable: true }) genre!: StoryGenre | null;
  @Field(() => StoryToneType, { nullable: true }) tone!: StoryTone | null;
  @Field(() => String, { description: 'The language passages are written in (en, es, fr, de, ru, zh, hi, pt, ko).' }) language!: string;
  @Field(() => [ID]) characterIds!: string[];
  @Field(() => [String]) characterNames!: string[];
  @Field(() => ID, { nullable: true, description: 'The passage the member reads now: the end of the branch they are on.' })
  currentPassageId!: string | null;
  @Field(() => Int, { description: 'Passages across all branches.' }) passageCount!: number;
  @Field(() => GraphQLISODateTime) createdAt!: string;
  @Field(() => GraphQLISODateTime) updatedAt!: string;
  @Field(() => GraphQLISODateTime) lastPlayedAt!: string;
}

@ObjectType('StoryPassage', { description: "The member's action and the passage written for it, with the choices it offers." })
export class StoryPassageType {
  @Field(() => ID) id!: string;
  @Field(() => ID) storyId!: string;
  @Field(() => ID, { nullable: true, description: 'The passage this one continues; null for an opening.' }) parentId!: string | null;
  @Field(() => Int) depth!: number;
  @Field(() => StoryActionKindType) actionKind!: StoryActionKind;
  @Field(() => String, { nullable: true, description: 'The choice taken or the action written; null for an opening.' })
  action!: string | null;
  @Field(() => String, { description: 'Partial while streaming; empty when a moderator removed it.' }) content!: string;
  @Field(() => [String], { description: 'Two to four once complete; empty when the member writes their own action.' })
  choices!: string[];
  @Field(() => MessageStatusType) status!: MessageStatusType;
  @Field(() => String, { nullable: true, description: "The model that wrote it; 'demo' for the scripted demo narrator." })
  model!: string | null;
  @Field(() => Boolean, { description: 'Written by the scripted offline demo narrator, not AI.' }) isDemo!: boolean;
  @Field(() => String, { nullable: true }) errorCode!: string | null;
  @Field(() => String, { nullable: true, description: "The member's name for it as a save point." }) savePoint!: string | null;
  @Field(() => ModerationStateType) moderationState!: ModerationStateType;
  @Field(() => GraphQLISODateTime) createdAt!: string;
  @Field(() => GraphQLISODateTime) updatedAt!: string;
}

@ObjectType('StoryMapNode', { description: 'A passage as the branch map shows it: its first words, no full text.' })
export class StoryMapNodeType {
  @Field(() => ID) id!: string;
  @Field(() => ID, { nullable: true }) parentId!: string | null;
  @Field(() => Int) depth!: number;
  @Field(() => StoryActionKindType) actionKind!: StoryActionKind;
  @Field(() => String, { nullable: true }) action!: string | null;
  @Field(() => String) excerpt!: string;
  @Field(() => MessageStatusType) status!: MessageStatusType;
  @Field(() => String, { nullable: true }) savePoint!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: string;
}

@ObjectType('StoryEdge')
export class StoryEdgeType {
  @Field(() => String) cursor!: string;
  @Field(() => StoryType) node!: StoryType;
}

@ObjectType('StoryConnection', {
  description: 'Forwards with `first` and `after: pageInfo.endCursor`, backwards with `last` and `before: pageInfo.startCursor`.',
})
export class StoryConnectionType {
  @Field(() => [StoryEdgeType]) edges!: StoryEdgeType[];
  @Field(() => [StoryType]) nodes!: StoryType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
  @Field(() => Int, { description: 'All my stories, not just this page.' }) totalCount!: number;
}

@ObjectType('StartStoryPayload')
export class StartStoryPayloadType {
  @Field(() => StoryType) story!: StoryType;
  @Field(() => StoryPassageType, { description: 'The opening: streaming at first; follow storyUpdates for its text.' })
  passage!: StoryPassageType;
}

@ObjectType('StoryExport', { description: 'One branch of a story as a Markdown document.' })
export class StoryExportType {
  @Field(() => String) fileName!: string;
  @Field(() => String) markdown!: string;
}

@ObjectType('StoryUpdate', { description: 'A live change in a story.' })
export class StoryUpdateType {
  @Field(() => StoryUpdateKind) type!: StoryUpdateKind;
  @Field(() => ID) storyId!: string;
  @Field(() => Boolean, { nullable: true, description: 'typing: a passage is being written.' }) typing?: boolean | null;
  @Field(() => ID, { nullable: true }) passageId?: string | null;
  @Field(() => Int, { nullable: true, description: 'delta: where `text` starts in the passage.' }) offset?: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'delta: raw passage text, choices block included (hide from the first line starting with ###).',
  })
  text?: string | null;
  @Field(() => StoryPassageType, { nullable: true }) passage?: StoryPassageType | null;
  @Field(() => StoryType, { nullable: true }) story?: StoryType | null;
}

@InputType('StartStoryInput')
export class StartStoryInputType {
  @Field(() => String, { description: 'How the story begins (at most 2000 characters).' }) premise!: string;
  @Field(() => String, { nullable: true, description: 'The first words of the premise when not given.' }) title?: string | null;
  @Field(() => StoryGenreType, { nullable: true }) genre?: StoryGenre | null;
  @Field(() => StoryToneType, { nullable: true }) tone?: StoryTone | null;
  @Field(() => String, { nullable: true, description: 'The language passages are written in; English when not given.' })
  language?: string | null;
  @Field(() => [ID], { nullable: true, description: "Up to 3 of the member's own or public characters." }) characterIds?: string[] | null;
}
