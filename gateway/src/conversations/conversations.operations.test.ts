import type { ChatClient } from '../chat-client';
import { ContentAccess } from '../moderation/content-access';
import { callerFor, fakeMember } from '../operations/caller.fake';
import type { Services } from '../operations/caller';
import { getConversation, listConversations, listMessages, sendMessage } from './conversations.operations';

const MEMBER_ID = '6f1c8a52-3c1e-4b8e-9a57-2f4de1c0a001';
const CONVERSATION_ID = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';

/** A chat client that records what reached it: a refused input must never get this far. */
function fakeServices() {
  const calls: string[] = [];
  const chat = {
    getConversation: async (_userId: string, id: string) => (calls.push(`get ${id}`), { id }),
    listConversations: async () => (calls.push('list'), { items: [] }),
    listMessages: async (_userId: string, _id: string, limit: number, beforeSeq: number | null) => (
      calls.push(`messages ${limit} ${beforeSeq}`),
      { messages: [], hasOlder: false }
    ),
    sendMessage: async () => (calls.push('send'), {}),
  } as unknown as ChatClient;
  const services = { chat, access: new ContentAccess(false) } as unknown as Services;
  return { services, calls };
}

const signedIn = callerFor(fakeMember({ id: MEMBER_ID }));

describe('conversation operations', () => {
  it('answer a malformed id NOT_FOUND without asking the chat service', async () => {
    const { services, calls } = fakeServices();
    await expect(getConversation(services, signedIn, 'not-a-uuid')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Conversation not found',
    });
    await expect(getConversation(services, signedIn, CONVERSATION_ID)).resolves.toEqual({ id: CONVERSATION_ID });
    expect(calls).toEqual([`get ${CONVERSATION_ID}`]);
  });

  it('check the caller before anything else: a visitor is UNAUTHENTICATED even with a bad id', async () => {
    const { services, calls } = fakeServices();
    await expect(getConversation(services, callerFor(null), 'not-a-uuid')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(calls).toEqual([]);
  });

  it('refuse an out-of-range page naming the field, on GraphQL (last, first) and REST (limit) alike', async () => {
    const { services, calls } = fakeServices();
    await expect(listMessages(services, signedIn, CONVERSATION_ID, { last: 0 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { last: 'last must be between 1 and 100' } },
    });
    await expect(listMessages(services, signedIn, CONVERSATION_ID, { limit: 101 })).rejects.toMatchObject({
      details: { fieldErrors: { limit: 'limit must be between 1 and 100' } },
    });
    await expect(listConversations(services, signedIn, { first: 101 })).rejects.toMatchObject({
      details: { fieldErrors: { first: 'first must be between 1 and 100' } },
    });
    expect(calls).toEqual([]);
  });

  it('page messages by cursor (GraphQL) and by seq (REST) to the same call', async () => {
    const { services, calls } = fakeServices();
    const cursor = Buffer.from('seq:7').toString('base64url');
    expect(await listMessages(services, signedIn, CONVERSATION_ID, { last: 5, before: cursor })).toMatchObject({ hasNewer: true });
    expect(await listMessages(services, signedIn, CONVERSATION_ID, { limit: 5, beforeSeq: 7 })).toMatchObject({ hasNewer: true });
    await expect(listMessages(services, signedIn, CONVERSATION_ID, { before: 'bm90IGEgY3Vyc29y' })).rejects.toMatchObject({
      message: 'Invalid cursor',
    });
    expect(calls).toEqual(['messages 5 7', 'messages 5 7']);
  });

  it('refuse a message with no conversation or no text before it is sent', async () => {
    const { services, calls } = fakeServices();
    await expect(sendMessage(services, signedIn, null, 'hi')).rejects.toMatchObject({ message: 'No conversation selected' });
    await expect(sendMessage(services, signedIn, CONVERSATION_ID, '   ')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Please enter a message',
    });
    expect(calls).toEqual([]);
  });
});
