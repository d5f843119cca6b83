import { type Database, type ServiceDefinition, readEventRetention } from '@app/kit';
import type { Role, User } from '@app/schema';
import { type HighlyEffectiveMethod, OperatorAttestation } from './age-assurance/age-assurance';
import { AgeAssuranceService } from './age-assurance/age-assurance.service';
import { AccessTokensService } from './access-tokens/access-tokens.service';
import { AccountsService } from './accounts/accounts.service';
import { HashingQueue } from './accounts/hashing-queue';
import { type PasswordKdf, scryptKdf } from './accounts/password';
import { PasswordHasher } from './accounts/password-hasher';
import { UnknownEmailBudget } from './accounts/unknown-email-budget';
import { type IdentityConfig, identityEnvironment, readIdentityConfig } from './identity.config';
import { openIdentityStore } from './identity.store';
import { serveIdentity } from './identity.handlers';
import { startIdentityAccountData } from './account-data/account-data.service';
import { IdentityAccountErasure1766500000000 } from './migrations/1766500000000-identity-account-erasure';
import { IdentityInitial1763800000000 } from './migrations/1763800000000-identity-initial';
import { InterestService } from './interest/interest.service';
import { ModerationService } from './moderation/moderation.service';
import { IdentityTrust1764300000000 } from './migrations/1764300000000-identity-trust';
import { IdentityAccessTokens1765100000000 } from './migrations/1765100000000-identity-access-tokens';
import { IdentityAchievements1765300000000 } from './migrations/1765300000000-identity-achievements';
import { IdentityProcessedEvents1763900000001 } from './migrations/1763900000001-identity-processed-events';
import { IdentityProcessedEventsAge1764100000000 } from './migrations/1764100000000-identity-processed-events-age';
import { startProcessedEventsPruning, startStatsProjection } from './stats/stats.projection';
import { StatsService } from './stats/stats.service';
import { startAllowanceSweep } from './tokens/allowance-sweep';
import { TokensService } from './tokens/tokens.service';

export type { IdentityConfig };
export {
  type CounterChange,
  type EventStreamExtent,
  type EventStreamReader,
  type StatsRebuildSummary,
  rebuildStats,
} from './stats/stats.rebuild';
export { identityEnvironment } from './identity.config';
export { PasswordHasher } from './accounts/password-hasher';
export { type PasswordKdf, scryptKdf } from './accounts/password';
export {
  type AgeAssurance,
  AgeCheck,
  HIGHLY_EFFECTIVE_METHODS,
  HighlyEffectiveMethod,
  SelfDeclaration,
  acceptAgeCheck,
} from './age-assurance/age-assurance';

/** The admin command line's grant: straight to identity's database (the running service relays the event). */
export async function grantRoleOffline(db: Database, email: string, role: Role, reason: string): Promise<User> {
  const moderation = new ModerationService(
    openIdentityStore(db),
    async () => undefined,
    () => new Date(),
  );
  return moderation.grantRole(email, role, null, reason);
}

/** How the audit log names the command line (as for role grants). */
const CLI_ACTOR = 'command line';

/** The admin command line's record of an age check the operator ran outside the product. */
export async function recordAgeCheckOffline(db: Database, email: string, method: HighlyEffectiveMethod, reference: string): Promise<User> {
  const ageAssurance = new AgeAssuranceService(openIdentityStore(db), () => new Date());
  return ageAssurance.record(email, new OperatorAttestation(method), { reference }, CLI_ACTOR, `${method} check, reference ${reference}`);
}

/** What tests may hand the service instead of what it would build from its configuration. */
export interface IdentityDependencies {
  passwordHasher: PasswordHasher;
}

const BUSY_MESSAGE = 'The server is busy checking passwords. Please try again in a few seconds.';

/** The hasher identity builds from its configuration; tests pass a key derivation they can hold back. */
export function createPasswordHasher(
  config: Pick<IdentityConfig, 'passwordHashConcurrency' | 'passwordHashQueue' | 'signinUnknownEmailPerMinute'>,
  kdf: PasswordKdf = scryptKdf,
): PasswordHasher {
  const queue = new HashingQueue({
    concurrency: config.passwordHashConcurrency,
    maxQueued: config.passwordHashQueue,
    busyMessage: BUSY_MESSAGE,
  });
  return new PasswordHasher(queue, new UnknownEmailBudget(config.signinUnknownEmailPerMinute), kdf);
}

/** Members, sessions, the token ledger, free-plan quotas and the dashboard stats projection. */
export const createIdentityService = (
  overrides: Partial<IdentityConfig> = {},
  dependencies: Partial<IdentityDependencies> = {},
): ServiceDefinition => ({
  name: 'identity',
  schema: 'identity',
  entities: [],
  environments: [identityEnvironment],
  migrations: [
    IdentityInitial1763800000000,
    IdentityProcessedEvents1763900000001,
    IdentityProcessedEventsAge1764100000000,
    IdentityTrust1764300000000,
    IdentityAccessTokens1765100000000,
    IdentityAchievements1765300000000,
    IdentityAccountErasure1766500000000,
  ],
  async start({ bus, db, env }) {
    const config = { ...readIdentityConfig(env), ...overrides };
    const hasher = dependencies.passwordHasher ?? createPasswordHasher(config);
    await hasher.warmUp();
    const store = openIdentityStore(db);
    const tokens = new TokensService(store, config.clock, bus, config.monthlyTokenAllowance);
    const accounts = new AccountsService(store, bus, tokens, config, hasher);
    const stats = new StatsService(store);
    const interest = new InterestService(store, config.clock);
    const moderation = new ModerationService(store, (hashes) => accounts.announceSessionsEnded(hashes), config.clock);
    const accessTokens = new AccessTokensService(store, config.clock, (hashes) => accounts.announceSessionsEnded(hashes));
    const projection = await startStatsProjection(bus, store, config.clock);
    const pruning = startProcessedEventsPruning(store, readEventRetention(env).maxAgeMs);
    return [
      ...(await serveIdentity(bus, accounts, tokens, stats, interest, moderation, accessTokens)),
      projection,
      pruning,
      startAllowanceSweep(tokens, config.clock),
      ...(await startIdentityAccountData(bus, store, hasher, config.clock)),
    ];
  },
});

export const identityService = createIdentityService();
