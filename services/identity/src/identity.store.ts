import { type Database, type SqlSession, UnitOfWork } from '@app/kit';
import { AccessTokensRepository } from './access-tokens/access-tokens.repository';
import { AccountsRepository } from './accounts/accounts.repository';
import { ThrottleRepository } from './accounts/throttle.repository';
import { ModerationRepository } from './moderation/moderation.repository';
import { AchievementsRepository } from './stats/achievements.repository';
import { StatsRepository } from './stats/stats.repository';
import { TokensRepository } from './tokens/tokens.repository';

/** Identity's repositories, bound to the session of one unit of work. */
export const identityRepositories = (session: SqlSession) => ({
  accounts: new AccountsRepository(session),
  accessTokens: new AccessTokensRepository(session),
  tokens: new TokensRepository(session),
  throttle: new ThrottleRepository(session),
  stats: new StatsRepository(session),
  achievements: new AchievementsRepository(session),
  moderation: new ModerationRepository(session),
});

export type IdentityRepositories = ReturnType<typeof identityRepositories>;
export type IdentityStore = UnitOfWork<IdentityRepositories>;

export const openIdentityStore = (db: Database): IdentityStore => new UnitOfWork(db, identityRepositories);
