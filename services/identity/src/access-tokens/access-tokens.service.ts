import { randomBytes } from 'node:crypto';
import { hashSessionToken } from '@app/kit';
import {
  ACCESS_TOKEN_LIMITS,
  ACCESS_TOKEN_PREFIX,
  AccessTokenInput,
  AppError,
  type AccessToken,
  type CreatedAccessToken,
  type TokenScope,
  type User,
  identityEvents,
  validationError,
} from '@app/schema';
import { toUser } from '../accounts/accounts.repository';
import type { IdentityStore } from '../identity.store';

const DAY_MS = 24 * 60 * 60_000;
/** Writing last-used on every call would turn reads into writes; once a minute is precise enough to spot a stale token. */
const TOUCH_INTERVAL_MS = 60_000;

export const isAccessToken = (secret: string): boolean => secret.startsWith(ACCESS_TOKEN_PREFIX);

/** Personal access tokens: created and revoked by their member, resolved by the gateway on every API call. */
export class AccessTokensService {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: () => Date,
    /** Tells every gateway a token is gone: its cached member goes and its WebSockets close. */
    private readonly announceEnded: (tokenHashes: string[]) => Promise<void>,
  ) {}

  async create(userId: string, rawInput: unknown): Promise<CreatedAccessToken> {
    const parsed = AccessTokenInput.safeParse(rawInput);
    if (!parsed.success) throw validationError(parsed.error);
    const { name, scopes, expiresInDays } = parsed.data;
    const now = this.clock();
    const secret = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    return this.store.transaction(async ({ accessTokens }, tx) => {
      if ((await accessTokens.countActiveForUpdate(userId, now)) >= ACCESS_TOKEN_LIMITS.perMember) {
        throw new AppError(
          'CONFLICT',
          `You have ${ACCESS_TOKEN_LIMITS.perMember} access tokens, the most one account may hold. Revoke one you no longer use first.`,
        );
      }
      const token = await accessTokens.insert({
        userId,
        name,
        scopes,
        tokenHash: hashSessionToken(secret),
        prefix: secret.slice(0, ACCESS_TOKEN_PREFIX.length + 4),
        createdAt: now,
        expiresAt: expiresInDays === null ? null : new Date(now.getTime() + expiresInDays * DAY_MS),
      });
      await tx.emit(identityEvents.accessTokenCreated, { userId, tokenId: token.id }, userId);
      return { token, secret };
    });
  }

  list(userId: string): Promise<AccessToken[]> {
    return this.store.run(({ accessTokens }) => accessTokens.listActive(userId, this.clock()));
  }

  async revoke(userId: string, tokenId: string): Promise<{ id: string }> {
    const tokenHash = await this.store.transaction(async ({ accessTokens }, tx) => {
      const revoked = await accessTokens.revoke(userId, tokenId, this.clock());
      if (!revoked) throw new AppError('NOT_FOUND', 'Access token not found');
      await tx.emit(identityEvents.accessTokenRevoked, { userId, tokenId }, userId);
      return revoked;
    });
    await this.announceEnded([tokenHash]);
    return { id: tokenId };
  }

  /** The member and scopes behind a token, or null when it is unknown, revoked, expired or its member suspended. */
  async resolve(secret: string, touch: boolean): Promise<{ user: User; scopes: TokenScope[] } | null> {
    const now = this.clock();
    return this.store.run(async ({ accessTokens }) => {
      const row = await accessTokens.findActiveByHash(hashSessionToken(secret), now);
      if (!row) return null;
      const lastUsed = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
      if (touch && now.getTime() - lastUsed > TOUCH_INTERVAL_MS) await accessTokens.touch(row.token_id, now);
      return { user: toUser(row), scopes: row.scopes };
    });
  }
}
