import type { Story, StoryLiveUpdate, StoryMapNode, StoryPage, StoryPassage } from '@app/schema';
import type { MessageStatusType } from './chat.types';
import { toConnection } from './chat.mappers';
import type { ModerationStateType } from './moderation.types';
import type { StoryConnectionType, StoryMapNodeType, StoryPassageType, StoryType, StoryUpdateKind, StoryUpdateType } from './story.types';

export function toStoryType(story: Story): StoryType {
  const { ownerId: _ownerId, ...fields } = story;
  return fields;
}

export function toPassageType(passage: StoryPassage): StoryPassageType {
  const { seq: _seq, ...fields } = passage;
  return {
    ...fields,
    status: passage.status as MessageStatusType,
    moderationState: passage.moderationState as ModerationStateType,
    isDemo: passage.model === 'demo',
  };
}

export const toMapNodeType = (node: StoryMapNode): StoryMapNodeType => ({ ...node, status: node.status as MessageStatusType });

/** A member's stories are always counted (the service counts them; a missing count would be a contract slip, read as 0). */
export function toStoryConnection(page: StoryPage): StoryConnectionType {
  return toConnection({ ...page, totalCount: page.totalCount ?? 0 }, toStoryType);
}

export function toStoryUpdateType(update: StoryLiveUpdate): StoryUpdateType {
  const base = { type: update.type as StoryUpdateKind, storyId: update.storyId };
  switch (update.type) {
    case 'typing':
      return { ...base, typing: update.typing };
    case 'delta':
      return { ...base, passageId: update.passageId, offset: update.offset, text: update.text };
    case 'passage':
      return { ...base, passageId: update.passage.id, passage: toPassageType(update.passage) };
    case 'story':
      return { ...base, story: toStoryType(update.story) };
    case 'deleted':
      return base;
  }
}
