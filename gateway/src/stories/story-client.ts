import type { Bus } from '@app/kit';
import { type ContentRating, type PageWindow, type RequestMeta, type StartStoryInput, storyRpc } from '@app/schema';

/** The gateway's calls to the chat service's stories; every call names the member, who must own the story. */
export class StoryClient {
  constructor(private readonly bus: Bus) {}

  listStories = (userId: string, window: PageWindow, meta: RequestMeta) =>
    this.bus.request(storyRpc.listStories, { userId, ...window }, meta);
  getStory = (userId: string, storyId: string, meta: RequestMeta) => this.bus.request(storyRpc.getStory, { userId, storyId }, meta);
  startStory = (userId: string, input: StartStoryInput, ratings: ContentRating[], meta: RequestMeta) =>
    this.bus.request(storyRpc.startStory, { userId, input, ratings }, meta);
  chooseStoryOption = (userId: string, storyId: string, passageId: string, choiceIndex: number, meta: RequestMeta) =>
    this.bus.request(storyRpc.chooseStoryOption, { userId, storyId, passageId, choiceIndex }, meta);
  takeStoryAction = (userId: string, storyId: string, passageId: string, action: string, meta: RequestMeta) =>
    this.bus.request(storyRpc.takeStoryAction, { userId, storyId, passageId, action }, meta);
  retellPassage = (userId: string, storyId: string, passageId: string, meta: RequestMeta) =>
    this.bus.request(storyRpc.retellPassage, { userId, storyId, passageId }, meta);
  storyPath = async (userId: string, storyId: string, passageId: string | null, meta: RequestMeta) =>
    (await this.bus.request(storyRpc.storyPath, { userId, storyId, passageId }, meta)).passages;
  storyMap = async (userId: string, storyId: string, meta: RequestMeta) =>
    (await this.bus.request(storyRpc.storyMap, { userId, storyId }, meta)).nodes;
  goToPassage = (userId: string, storyId: string, passageId: string, meta: RequestMeta) =>
    this.bus.request(storyRpc.goToPassage, { userId, storyId, passageId }, meta);
  setSavePoint = (userId: string, storyId: string, passageId: string, label: string, meta: RequestMeta) =>
    this.bus.request(storyRpc.setSavePoint, { userId, storyId, passageId, label }, meta);
  renameStory = (userId: string, storyId: string, title: string, meta: RequestMeta) =>
    this.bus.request(storyRpc.renameStory, { userId, storyId, title }, meta);
  deleteStory = (userId: string, storyId: string, meta: RequestMeta) => this.bus.request(storyRpc.deleteStory, { userId, storyId }, meta);
  stopStory = async (userId: string, storyId: string, meta: RequestMeta) =>
    (await this.bus.request(storyRpc.stopStory, { userId, storyId }, meta)).stopped;
  exportStory = (userId: string, storyId: string, passageId: string | null, meta: RequestMeta) =>
    this.bus.request(storyRpc.exportStory, { userId, storyId, passageId }, meta);
}
