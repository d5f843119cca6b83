import type { SqlSession, UnitOfWork } from '@app/kit';
import { CharactersRepository } from './characters/characters.repository';
import { ConversationsRepository } from './conversations/conversations.repository';
import { ModerationRepository } from './moderation/moderation.repository';
import { PersonasRepository } from './personas/personas.repository';
import { StoriesRepository } from './stories/stories.repository';

/** Chat's repositories, bound to the session of one unit of work: a read on the pool, or the transaction they run in. */
export const chatRepositories = (session: SqlSession) => ({
  conversations: new ConversationsRepository(session),
  characters: new CharactersRepository(session),
  moderation: new ModerationRepository(session),
  stories: new StoriesRepository(session),
  personas: new PersonasRepository(session),
});

export type ChatRepositories = ReturnType<typeof chatRepositories>;

/** The only way chat's services reach their tables: `store.run(…)` or `store.transaction(…)`. */
export type ChatStore = UnitOfWork<ChatRepositories>;
