import { type Bus, hashSessionToken } from '@app/kit';
import {
  type AccessTokenInput,
  AppError,
  type CaseStatus,
  type InterestInput,
  type LoginInput,
  type RegisterInput,
  type ModerationActionInput,
  type ModerationTarget,
  type ProfileChanges,
  type RatingPreferences,
  type ReportInput,
  type RequestMeta,
  type Role,
  type TakedownInput,
  type TokenScope,
  type User,
  identityRpc,
} from '@app/schema';
import type { z } from 'zod';
import { type Access, SessionCache } from './session-cache';

/**
 * Sign-in and sign-up wait at most this long for identity (the bus default is 15 s): a member is better served by
 * "try again" than by a long spinner, and identity refuses at once what it could not finish by then.
 */
const AUTH_TIMEOUT_MS = 10_000;
const AUTH_RETRY_AFTER_SECONDS = 5;

/** A sign-in or sign-up that ran out of time is worth retrying: answered 503 + Retry-After rather than 504. */
async function retryableOnTimeout<T>(call: Promise<T>, message: string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof AppError && error.code === 'TIMEOUT') {
      throw new AppError('UNAVAILABLE', message, { retryAfterSeconds: AUTH_RETRY_AFTER_SECONDS });
    }
    throw error;
  }
}

/** The gateway's calls to the identity service; GraphQL resolvers and REST handlers share them. */
export class IdentityClient {
  private readonly signedOut = new Set<(tokenHash: string) => void>();
  private readonly lookups = new Map<string, Promise<Access | null>>();
  readonly sessions: SessionCache;

  constructor(
    private readonly bus: Bus,
    sessionCacheMs = 0,
  ) {
    this.sessions = new SessionCache(sessionCacheMs);
  }

  /** Called with the token's SHA-256 after a sign-out through this client, so what holds the session open (WebSockets) lets go at once. */
  onSignedOut(listener: (tokenHash: string) => void): void {
    this.signedOut.add(listener);
  }

  register = (input: RegisterInput, clientIp: string, meta: RequestMeta) =>
    retryableOnTimeout(
      this.bus.request(identityRpc.register, { input, clientIp }, meta, AUTH_TIMEOUT_MS),
      'Creating your account is taking too long right now. Please try again in a few seconds.',
    );
  login = (input: z.input<typeof LoginInput>, clientIp: string, meta: RequestMeta) =>
    retryableOnTimeout(
      this.bus.request(identityRpc.login, { input, clientIp }, meta, AUTH_TIMEOUT_MS),
      'Signing in is taking too long right now. Please try again in a few seconds.',
    );
  logout = async (sessionToken: string, meta: RequestMeta) => {
    const tokenHash = hashSessionToken(sessionToken);
    this.forgetSession(tokenHash);
    const result = await this.bus.request(identityRpc.logout, { sessionToken }, meta);
    this.forgetSession(tokenHash);
    for (const listener of this.signedOut) listener(tokenHash);
    return result;
  };
  getStats = (userId: string, meta: RequestMeta) => this.bus.request(identityRpc.getStats, { userId }, meta);
  getQuotas = async (userId: string, meta: RequestMeta) => (await this.bus.request(identityRpc.getQuotas, { userId }, meta)).quotas;
  grantTokens = (email: string, amount: number, reason: string, idempotencyKey: string, meta: RequestMeta) =>
    this.bus.request(identityRpc.grantTokens, { email, amount, reason, idempotencyKey }, meta);

  recordInterest = (interest: InterestInput, userId: string | null, clientIp: string, meta: RequestMeta) =>
    this.bus.request(identityRpc.recordInterest, { interest, userId, clientIp }, meta);

  fileReport = (reporterId: string, input: ReportInput, target: ModerationTarget, meta: RequestMeta) =>
    this.bus.request(identityRpc.fileReport, { reporterId, input, target }, meta);
  fileTakedown = (input: TakedownInput, targets: ModerationTarget[], clientIp: string, meta: RequestMeta) =>
    this.bus.request(identityRpc.fileTakedown, { input, targets, clientIp }, meta);
  listCases = (status: CaseStatus, first: number, after: string | null, meta: RequestMeta) =>
    this.bus.request(identityRpc.listCases, { status, first, after }, meta);
  takeAction = (moderatorId: string, input: ModerationActionInput, target: ModerationTarget | null, meta: RequestMeta) =>
    this.bus.request(identityRpc.takeAction, { moderatorId, input, target }, meta);
  listAudit = (first: number, after: string | null, meta: RequestMeta) => this.bus.request(identityRpc.listAudit, { first, after }, meta);
  listNotices = async (userId: string, meta: RequestMeta) => (await this.bus.request(identityRpc.listNotices, { userId }, meta)).notices;
  dismissNotice = async (userId: string, noticeId: string, meta: RequestMeta) =>
    (await this.bus.request(identityRpc.dismissNotice, { userId, noticeId }, meta)).ok;
  grantRole = (email: string, role: Role, actorId: string, reason: string, meta: RequestMeta) =>
    this.bus.request(identityRpc.grantRole, { email, role, actorId, reason }, meta);
  createAccessToken = (userId: string, input: AccessTokenInput, meta: RequestMeta) =>
    this.bus.request(identityRpc.createAccessToken, { userId, input }, meta);
  listAccessTokens = async (userId: string, meta: RequestMeta) =>
    (await this.bus.request(identityRpc.listAccessTokens, { userId }, meta)).tokens;
  revokeAccessToken = async (userId: string, tokenId: string, meta: RequestMeta) =>
    (await this.bus.request(identityRpc.revokeAccessToken, { userId, tokenId }, meta)).id;
  updatePreferences = (userId: string, ratingPreferences: RatingPreferences, meta: RequestMeta) =>
    this.bus.request(identityRpc.updatePreferences, { userId, ratingPreferences }, meta);

  /** Changes the member's names or picture; their sessions on this gateway read the new profile at once (others within SESSION_CACHE_MS). */
  updateProfile = async (userId: string, changes: ProfileChanges, meta: RequestMeta): Promise<User> => {
    const user = await this.bus.request(identityRpc.updateProfile, { userId, changes }, meta);
    this.sessions.forgetMember(userId);
    return user;
  };
  getAchievements = async (userId: string, meta: RequestMeta) =>
    (await this.bus.request(identityRpc.getAchievements, { userId }, meta)).achievements;
  getPlan = (userId: string, meta: RequestMeta) => this.bus.request(identityRpc.getPlan, { userId }, meta);

  /** A session that ended: its cached member goes, and a lookup under way is not cached when it returns. */
  forgetSession(tokenHash: string): void {
    this.sessions.forget(tokenHash);
    this.lookups.delete(tokenHash);
  }

  /**
   * The member behind a session or access token (with the token's scopes), from the session cache when it was looked
   * up moments ago. `touch: false` (the WebSocket checks) always asks identity, without counting as the member's activity.
   */
  async resolveSession(sessionToken: string | null, meta: RequestMeta, touch = true): Promise<Access | null> {
    if (!sessionToken || sessionToken.length > 200) return null;
    if (!touch || !this.sessions.enabled)
      return asAccess(await this.bus.request(identityRpc.resolveSession, { sessionToken, touch }, meta));
    const tokenHash = hashSessionToken(sessionToken);
    const cached = this.sessions.get(tokenHash);
    if (cached) return cached;
    // Requests that arrive together share one lookup.
    let lookup = this.lookups.get(tokenHash);
    if (!lookup) {
      lookup = this.bus
        .request(identityRpc.resolveSession, { sessionToken, touch }, meta)
        .then((resolved) => {
          const access = asAccess(resolved);
          if (access && this.lookups.get(tokenHash) === lookup) this.sessions.set(tokenHash, access);
          return access;
        })
        .finally(() => {
          if (this.lookups.get(tokenHash) === lookup) this.lookups.delete(tokenHash);
        });
      this.lookups.set(tokenHash, lookup);
    }
    return lookup;
  }
}

const asAccess = ({ user, scopes }: { user: User | null; scopes: TokenScope[] | null }): Access | null => (user ? { user, scopes } : null);
