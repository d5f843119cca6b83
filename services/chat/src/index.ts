import { Outbox, type ServiceDefinition } from '@app/kit';
import { ChatInitial1763800000001 } from './migrations/1763800000001-chat-initial';

/** Conversations, messages, characters and stories; its features arrive with the chat issue. */
export const chatService: ServiceDefinition = {
  name: 'chat',
  schema: 'chat',
  entities: [],
  migrations: [ChatInitial1763800000001],
  async start({ bus, db }) {
    return [new Outbox(db, bus, 'chat').start()];
  },
};
