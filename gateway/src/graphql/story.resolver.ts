import type { StoryLiveUpdate } from '@app/schema';
import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  chooseStoryOption,
  deleteStory,
  exportStory,
  getStory,
  goToPassage,
  listStories,
  renameStory,
  retellPassage,
  setSavePoint,
  startStory,
  stopStory,
  storyMap,
  storyPath,
  takeStoryAction,
  watchStory,
} from '../stories/stories.operations';
import { PageArgsType } from './chat.types';
import { type GatewayContext, callerOf } from './context';
import { toMapNodeType, toPassageType, toStoryConnection, toStoryType, toStoryUpdateType } from './story.mappers';
import {
  StartStoryInputType,
  StartStoryPayloadType,
  StoryConnectionType,
  StoryExportType,
  StoryMapNodeType,
  StoryPassageType,
  StoryType,
  StoryUpdateType,
} from './story.types';

@Resolver()
export class StoryResolver {
  @Query(() => StoryConnectionType, { description: 'My stories, most recently played first (20 when neither first nor last is given).' })
  async stories(@Args(() => PageArgsType) page: PageArgsType, @Ctx() context: GatewayContext): Promise<StoryConnectionType> {
    return toStoryConnection(await listStories(context, callerOf(context), page));
  }

  @Query(() => StoryType, { description: 'One of my stories (NOT_FOUND for anyone else).' })
  async story(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<StoryType> {
    return toStoryType(await getStory(context, callerOf(context), id));
  }

  @Query(() => [StoryPassageType], {
    description: 'The passages from the opening to `passageId` (the current one when null), in reading order.',
  })
  async storyPath(
    @Arg('storyId', () => ID) storyId: string,
    @Ctx() context: GatewayContext,
    @Arg('passageId', () => ID, { nullable: true }) passageId?: string | null,
  ): Promise<StoryPassageType[]> {
    return (await storyPath(context, callerOf(context), storyId, passageId)).map(toPassageType);
  }

  @Query(() => [StoryMapNodeType], { description: 'Every passage of the story across its branches, oldest first.' })
  async storyMap(@Arg('storyId', () => ID) storyId: string, @Ctx() context: GatewayContext): Promise<StoryMapNodeType[]> {
    return (await storyMap(context, callerOf(context), storyId)).map(toMapNodeType);
  }

  @Query(() => StoryExportType, { description: 'The branch ending at `passageId` (the current one when null) as Markdown.' })
  storyExport(
    @Arg('storyId', () => ID) storyId: string,
    @Ctx() context: GatewayContext,
    @Arg('passageId', () => ID, { nullable: true }) passageId?: string | null,
  ): Promise<StoryExportType> {
    return exportStory(context, callerOf(context), storyId, passageId);
  }

  @Mutation(() => StartStoryPayloadType, {
    description: "Counts one of the month's stories and writes the opening (1 token); it streams through storyUpdates.",
  })
  async startStory(
    @Arg('input', () => StartStoryInputType) input: StartStoryInputType,
    @Ctx() context: GatewayContext,
  ): Promise<StartStoryPayloadType> {
    const started = await startStory(context, callerOf(context), input);
    return { story: toStoryType(started.story), passage: toPassageType(started.passage) };
  }

  @Mutation(() => StoryPassageType, {
    description: 'Continues from a passage with one of its choices (1 token); it becomes the current one.',
  })
  async chooseStoryOption(
    @Arg('storyId', () => ID) storyId: string,
    @Arg('passageId', () => ID) passageId: string,
    @Arg('choiceIndex', () => Int) choiceIndex: number,
    @Ctx() context: GatewayContext,
  ): Promise<StoryPassageType> {
    return toPassageType(await chooseStoryOption(context, callerOf(context), storyId, passageId, choiceIndex));
  }

  @Mutation(() => StoryPassageType, { description: 'Continues from a passage with my own action (1 token); it becomes the current one.' })
  async takeStoryAction(
    @Arg('storyId', () => ID) storyId: string,
    @Arg('passageId', () => ID) passageId: string,
    @Arg('action', () => String) action: string,
    @Ctx() context: GatewayContext,
  ): Promise<StoryPassageType> {
    return toPassageType(await takeStoryAction(context, callerOf(context), storyId, passageId, action));
  }

  @Mutation(() => StoryPassageType, { description: 'Writes a passage again as a new branch beside it (1 token); the old one stays.' })
  async retellPassage(
    @Arg('storyId', () => ID) storyId: string,
    @Arg('passageId', () => ID) passageId: string,
    @Ctx() context: GatewayContext,
  ): Promise<StoryPassageType> {
    return toPassageType(await retellPassage(context, callerOf(context), storyId, passageId));
  }

  @Mutation(() => StoryType, { description: 'Makes any passage the current one, to take another branch from it; nothing is removed.' })
  async goToPassage(
    @Arg('storyId', () => ID) storyId: string,
    @Arg('passageId', () => ID) passageId: string,
    @Ctx() context: GatewayContext,
  ): Promise<StoryType> {
    return toStoryType(await goToPassage(context, callerOf(context), storyId, passageId));
  }

  @Mutation(() => StoryPassageType, { description: 'Names a passage as a save point; an empty label removes it.' })
  async setSavePoint(
    @Arg('storyId', () => ID) storyId: string,
    @Arg('passageId', () => ID) passageId: string,
    @Arg('label', () => String) label: string,
    @Ctx() context: GatewayContext,
  ): Promise<StoryPassageType> {
    return toPassageType(await setSavePoint(context, callerOf(context), storyId, passageId, label));
  }

  @Mutation(() => StoryType)
  async renameStory(
    @Arg('id', () => ID) id: string,
    @Arg('title', () => String) title: string,
    @Ctx() context: GatewayContext,
  ): Promise<StoryType> {
    return toStoryType(await renameStory(context, callerOf(context), id, title));
  }

  @Mutation(() => ID, { description: "Returns the deleted story's id." })
  deleteStory(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<string> {
    return deleteStory(context, callerOf(context), id);
  }

  @Mutation(() => Boolean, { description: 'Stops the passage being written; text so far is kept.' })
  stopStory(@Arg('storyId', () => ID) storyId: string, @Ctx() context: GatewayContext): Promise<boolean> {
    return stopStory(context, callerOf(context), storyId);
  }

  @Subscription(() => StoryUpdateType, {
    description: 'Typing state, passage text as it is written, and passage and story changes in one of my stories.',
    subscribe: ({ args, context }) => {
      const ctx = context as GatewayContext;
      return watchStory(ctx, callerOf(ctx), String((args as { storyId: string }).storyId));
    },
  })
  storyUpdates(@Arg('storyId', () => ID) _storyId: string, @Root() update: StoryLiveUpdate): StoryUpdateType {
    return toStoryUpdateType(update);
  }
}
