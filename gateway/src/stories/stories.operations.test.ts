import { AppError } from '@app/schema';
import { ContentAccess } from '../moderation/content-access';
import { callerFor, fakeMember } from '../operations/caller.fake';
import type { Services } from '../operations/caller';
import type { StoryClient } from './story-client';
import { chooseStoryOption, findStory, getStory, startStory, takeStoryAction } from './stories.operations';

const MEMBER_ID = '6f1c8a52-3c1e-4b8e-9a57-2f4de1c0a001';
const STORY_ID = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';
const PASSAGE_ID = '0e7a3b1c-5d2f-4e8a-9c6b-7f1d2e3a4b5c';

/** A story client that records what reached it: a refused input must never get this far. */
function fakeServices(getStoryAnswer: () => Promise<unknown> = async () => ({ id: STORY_ID })) {
  const calls: unknown[] = [];
  const stories = {
    getStory: async (_userId: string, id: string) => (calls.push(['get', id]), getStoryAnswer()),
    startStory: async (_userId: string, input: unknown) => (calls.push(['start', input]), {}),
    chooseStoryOption: async (_userId: string, storyId: string, passageId: string, index: number) => (
      calls.push(['choose', storyId, passageId, index]),
      {}
    ),
    takeStoryAction: async (_userId: string, _storyId: string, _passageId: string, action: string) => (calls.push(['act', action]), {}),
  } as unknown as StoryClient;
  const services = { stories, access: new ContentAccess(false) } as unknown as Services;
  return { services, calls };
}

const signedIn = callerFor(fakeMember({ id: MEMBER_ID }));

describe('story operations', () => {
  it('answer malformed story and passage ids NOT_FOUND without asking the chat service', async () => {
    const { services, calls } = fakeServices();
    await expect(getStory(services, signedIn, 'not-a-uuid')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Story not found' });
    await expect(chooseStoryOption(services, signedIn, STORY_ID, 'nope', 0)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Passage not found',
    });
    expect(calls).toEqual([]);
  });

  it('check the caller first: a visitor is UNAUTHENTICATED even with a bad id', async () => {
    const { services, calls } = fakeServices();
    await expect(getStory(services, callerFor(null), 'not-a-uuid')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(findStory(services, callerFor(null), STORY_ID)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(calls).toEqual([]);
  });

  it('refuse a choice outside the offered ones and a blank action, naming the problem', async () => {
    const { services, calls } = fakeServices();
    await expect(chooseStoryOption(services, signedIn, STORY_ID, PASSAGE_ID, 4)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'choiceIndex must be between 0 and 3',
    });
    await expect(takeStoryAction(services, signedIn, STORY_ID, PASSAGE_ID, '   ')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Please write what you do next',
    });
    await takeStoryAction(services, signedIn, STORY_ID, PASSAGE_ID, '  I open the door. ');
    await chooseStoryOption(services, signedIn, STORY_ID, PASSAGE_ID, 2);
    expect(calls).toEqual([
      ['act', 'I open the door.'],
      ['choose', STORY_ID, PASSAGE_ID, 2],
    ]);
  });

  it("start a story with the contract's defaults for what GraphQL sent as null", async () => {
    const { services, calls } = fakeServices();
    await startStory(services, signedIn, {
      premise: ' A door in the rock. ',
      title: null,
      genre: 'mystery',
      language: null,
      characterIds: null,
    });
    expect(calls).toEqual([['start', { premise: 'A door in the rock.', title: null, genre: 'mystery', language: 'en', characterIds: [] }]]);
    await expect(startStory(services, signedIn, { premise: 'A door.', language: 'xx' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Unknown language',
    });
    await expect(startStory(services, signedIn, { premise: 'A door.', characterIds: ['bad'] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Character not found',
    });
    expect(calls).toHaveLength(1);
  });

  it("find a story for node(id:) as null when it is not the caller's, and let an outage through", async () => {
    const { services } = fakeServices(async () => {
      throw new AppError('NOT_FOUND', 'Story not found');
    });
    await expect(findStory(services, signedIn, STORY_ID)).resolves.toBeNull();
    await expect(findStory(services, signedIn, 'not-a-uuid')).resolves.toBeNull();
    const down = fakeServices(async () => {
      throw new Error('bus down');
    });
    await expect(findStory(down.services, signedIn, STORY_ID)).rejects.toThrow('bus down');
  });
});
