import { type Bus, logger } from '@app/kit';
import { type StoryLiveUpdate, storyLiveSubject } from '@app/schema';

/** Live (not stored) updates to the story's subscribers; a lost one is only logged: clients refetch on reconnect. */
export class StoryLive {
  constructor(private readonly bus: Bus) {}

  publish(update: StoryLiveUpdate): Promise<void> {
    return this.bus.publishLive(storyLiveSubject(update.storyId), update).catch((error: unknown) => {
      logger.warn({ err: error, storyId: update.storyId }, 'story live update not delivered');
    });
  }
}

/** The live channel as the stories' rules use it (unit tests give a fake). */
export type StoryLivePort = Pick<StoryLive, 'publish'>;
