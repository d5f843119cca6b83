import type { SqlSession, UnitOfWork } from '@app/kit';
import { CharactersRepository } from './characters/characters.repository';
import { ConversationsRepository } from './conversations/conversations.repository';

/** Chat's repositories, bound to the session of one unit of work: a read on the pool, or the transaction they run in. */
export const chatRepositories = (session: SqlSession) => ({
  conversations: new ConversationsRepository(session),
  characters: new CharactersRepository(session),
});

export type ChatRepositories = ReturnType<typeof chatRepositories>;

/** The only way chat's services reach their tables: `store.run(…)` or `store.transaction(…)`. */
export type ChatStore = UnitOfWork<ChatRepositories>;
