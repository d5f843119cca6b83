import { type Bus, type Subscription } from '@app/kit';
import { identityRpc } from '@app/schema';
import { type AccessTokensService, isAccessToken } from './access-tokens/access-tokens.service';
import type { AccountsService } from './accounts/accounts.service';
import type { InterestService } from './interest/interest.service';
import type { ModerationService } from './moderation/moderation.service';
import type { StatsService } from './stats/stats.service';
import type { TokensService } from './tokens/tokens.service';

/** Bus endpoints: each validates (by contract), calls one service function, returns its result. */
export async function serveIdentity(
  bus: Bus,
  accounts: AccountsService,
  tokens: TokensService,
  stats: StatsService,
  interest: InterestService,
  moderation: ModerationService,
  accessTokens: AccessTokensService,
): Promise<Subscription[]> {
  return Promise.all([
    bus.serve(identityRpc.register, ({ input, clientIp }, { deadlineAt }) => accounts.register(input, clientIp, deadlineAt)),
    bus.serve(identityRpc.login, ({ input, clientIp }, { deadlineAt }) => accounts.login(input, clientIp, deadlineAt)),
    bus.serve(identityRpc.logout, async ({ sessionToken }) => ({ ok: await accounts.logout(sessionToken) })),
    bus.serve(identityRpc.resolveSession, async ({ sessionToken, touch }) =>
      isAccessToken(sessionToken)
        ? ((await accessTokens.resolve(sessionToken, touch)) ?? { user: null, scopes: null })
        : { user: await accounts.resolveSession(sessionToken, { touch }), scopes: null },
    ),
    bus.serve(identityRpc.createAccessToken, ({ userId, input }) => accessTokens.create(userId, input)),
    bus.serve(identityRpc.listAccessTokens, async ({ userId }) => ({ tokens: await accessTokens.list(userId) })),
    bus.serve(identityRpc.revokeAccessToken, ({ userId, tokenId }) => accessTokens.revoke(userId, tokenId)),
    bus.serve(identityRpc.getUser, ({ userId }) => accounts.getUser(userId)),
    bus.serve(identityRpc.getPublicProfiles, async ({ userIds }) => ({ profiles: await accounts.getPublicProfiles(userIds) })),
    bus.serve(identityRpc.grantTokens, ({ email, amount, reason, idempotencyKey }) =>
      tokens.grantByEmail(email, amount, reason, idempotencyKey),
    ),
    bus.serve(identityRpc.debitTokens, (input) => tokens.debit(input)),
    bus.serve(identityRpc.refundTokens, (input) => tokens.refund(input)),
    bus.serve(identityRpc.consumeQuota, (input) => tokens.consumeQuota(input)),
    bus.serve(identityRpc.getQuotas, async ({ userId }) => ({ quotas: await tokens.getQuotas(userId) })),
    bus.serve(identityRpc.getStats, ({ userId }) => stats.getStats(userId)),
    bus.serve(identityRpc.getAchievements, async ({ userId }) => ({ achievements: await stats.getAchievements(userId) })),
    bus.serve(identityRpc.getPlan, ({ userId }) => tokens.getPlan(userId)),
    bus.serve(identityRpc.recordInterest, ({ interest: input, userId, clientIp }) => interest.record(input, userId, clientIp)),
    bus.serve(identityRpc.findMember, ({ email }) => accounts.findByEmail(email)),
    bus.serve(identityRpc.updatePreferences, ({ userId, ratingPreferences }) => accounts.updatePreferences(userId, ratingPreferences)),
    bus.serve(identityRpc.updateProfile, ({ userId, changes }) => accounts.updateProfile(userId, changes)),
    bus.serve(identityRpc.fileReport, ({ reporterId, input, target }) => moderation.fileReport(reporterId, input, target)),
    bus.serve(identityRpc.fileTakedown, ({ input, targets, clientIp }) => moderation.fileTakedown(input, targets, clientIp)),
    bus.serve(identityRpc.listCases, ({ status, first, after }) => moderation.listCases(status, first, after)),
    bus.serve(identityRpc.takeAction, ({ moderatorId, input, target }) => moderation.takeAction(moderatorId, input, target)),
    bus.serve(identityRpc.listAudit, ({ first, after }) => moderation.listAudit(first, after)),
    bus.serve(identityRpc.listNotices, async ({ userId }) => ({ notices: await moderation.listNotices(userId) })),
    bus.serve(identityRpc.dismissNotice, async ({ userId, noticeId }) => ({ ok: await moderation.dismissNotice(userId, noticeId) })),
    bus.serve(identityRpc.grantRole, ({ email, role, actorId, reason }) => moderation.grantRole(email, role, actorId, reason)),
  ]);
}
