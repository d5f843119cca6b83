import type { Bus, Subscription } from '@app/kit';
import { storyRpc } from '@app/schema';
import type { StoriesService } from './stories.service';

/** Bus endpoints of the stories: each validates (by contract), calls one service function, returns its result. */
export function serveStories(bus: Bus, stories: StoriesService): Promise<Subscription[]> {
  return Promise.all([
    bus.serve(storyRpc.listStories, ({ userId, ...page }) => stories.list(userId, page)),
    bus.serve(storyRpc.getStory, ({ userId, storyId }) => stories.get(userId, storyId)),
    bus.serve(storyRpc.startStory, ({ userId, input, ratings }) => stories.start(userId, input, ratings)),
    bus.serve(storyRpc.chooseStoryOption, ({ userId, storyId, passageId, choiceIndex }) =>
      stories.choose(userId, storyId, passageId, choiceIndex),
    ),
    bus.serve(storyRpc.takeStoryAction, ({ userId, storyId, passageId, action }) => stories.act(userId, storyId, passageId, action)),
    bus.serve(storyRpc.retellPassage, ({ userId, storyId, passageId }) => stories.retell(userId, storyId, passageId)),
    bus.serve(storyRpc.storyPath, async ({ userId, storyId, passageId }) => ({
      passages: await stories.path(userId, storyId, passageId ?? null),
    })),
    bus.serve(storyRpc.storyMap, async ({ userId, storyId }) => ({ nodes: await stories.map(userId, storyId) })),
    bus.serve(storyRpc.goToPassage, ({ userId, storyId, passageId }) => stories.goTo(userId, storyId, passageId)),
    bus.serve(storyRpc.setSavePoint, ({ userId, storyId, passageId, label }) => stories.setSavePoint(userId, storyId, passageId, label)),
    bus.serve(storyRpc.renameStory, ({ userId, storyId, title }) => stories.rename(userId, storyId, title)),
    bus.serve(storyRpc.deleteStory, async ({ userId, storyId }) => {
      await stories.delete(userId, storyId);
      return { ok: true };
    }),
    bus.serve(storyRpc.stopStory, async ({ userId, storyId }) => ({ stopped: await stories.stop(userId, storyId) })),
    bus.serve(storyRpc.exportStory, ({ userId, storyId, passageId }) => stories.export(userId, storyId, passageId ?? null)),
  ]);
}
