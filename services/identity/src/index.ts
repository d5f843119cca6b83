import { Outbox, type ServiceDefinition, readOutboxOptions } from '@app/kit';
import { AccountsService } from './accounts/accounts.service';
import { type IdentityConfig, readIdentityConfig } from './identity.config';

export type { IdentityConfig };
import { serveIdentity } from './identity.handlers';
import { IdentityInitial1763800000000 } from './migrations/1763800000000-identity-initial';
import { InterestService } from './interest/interest.service';
import { IdentityProcessedEvents1763900000001 } from './migrations/1763900000001-identity-processed-events';
import { startStatsProjection } from './stats/stats.projection';
import { StatsService } from './stats/stats.service';
import { TokensService } from './tokens/tokens.service';

export { ageOn } from './accounts/accounts.service';

/** Members, sessions, the token ledger, free-plan quotas and the dashboard stats projection. */
export const createIdentityService = (overrides: Partial<IdentityConfig> = {}): ServiceDefinition => ({
  name: 'identity',
  schema: 'identity',
  entities: [],
  migrations: [IdentityInitial1763800000000, IdentityProcessedEvents1763900000001],
  async start({ bus, db, env }) {
    const config = { ...readIdentityConfig(env), ...overrides };
    const outbox = new Outbox(db, bus, 'identity', readOutboxOptions(env));
    const tokens = new TokensService(db, outbox, config.clock);
    const accounts = new AccountsService(db, outbox, tokens, config);
    const stats = new StatsService(db);
    const interest = new InterestService(db, outbox, config.clock);
    const relay = outbox.start();
    const projection = await startStatsProjection(bus, db);
    return [...(await serveIdentity(bus, accounts, tokens, stats, interest)), projection, relay];
  },
});

export const identityService = createIdentityService();
