import { type Bus, logger } from '@app/kit';
import { AppError } from '@app/schema';
import {
  type AuthResult,
  LoginInput,
  ProfileChanges,
  type PublicProfile,
  RatingPreferences,
  RegisterInput,
  SESSION_ENDED_SUBJECT,
  type SessionEnded,
  type User,
  identityEvents,
  validationError,
} from '@app/schema';
import { SelfDeclaration, acceptAgeCheck } from '../age-assurance/age-assurance';
import type { IdentityConfig } from '../identity.config';
import type { IdentityStore } from '../identity.store';
import type { TokensService } from '../tokens/tokens.service';
import { type UserRow, toUser } from './accounts.repository';
import type { PasswordHasher } from './password-hasher';
import { generateSessionToken, hashSessionToken } from './session-token';
import { Throttle, type ThrottleRule } from './throttle';

const MINUTE_MS = 60_000;
/** Five wrong passwords lock an account for 15 minutes: enough for typos, too few for guessing. */
const LOGIN_PER_ACCOUNT: ThrottleRule = { limit: 5, windowMs: 15 * MINUTE_MS };
/** Per address, generous enough for a shared NAT, tight enough to stop credential stuffing. */
const LOGIN_PER_IP: ThrottleRule = { limit: 50, windowMs: 15 * MINUTE_MS };
/** Writing last-seen on every request would turn reads into writes; once a minute is precise enough. */
const SESSION_TOUCH_INTERVAL_MS = MINUTE_MS;

/** Stops work whose caller has stopped waiting: nobody would receive the session or the account it creates. */
function assertCallerWaiting(deadlineAt: number | undefined): void {
  if (deadlineAt !== undefined && deadlineAt <= Date.now()) {
    throw new AppError('TIMEOUT', 'The request timed out before it could be completed.');
  }
}

export class AccountsService {
  private readonly throttle: Throttle;
  private readonly selfDeclaration = new SelfDeclaration();

  constructor(
    private readonly store: IdentityStore,
    private readonly bus: Bus,
    private readonly tokens: TokensService,
    private readonly config: IdentityConfig,
    private readonly hasher: PasswordHasher,
  ) {
    this.throttle = new Throttle(store, config.clock);
  }

  /** `deadlineAt` (epoch ms) is when the caller stops waiting; no hashing starts and no account is created past it. */
  async register(rawInput: unknown, clientIp: string, deadlineAt?: number): Promise<AuthResult> {
    const parsed = RegisterInput.safeParse(rawInput);
    if (!parsed.success) throw validationError(parsed.error);
    const input = parsed.data;
    const now = this.config.clock();
    if (!input.acceptTerms) {
      throw new AppError('TERMS_NOT_ACCEPTED', 'Please accept the Terms of Service and confirm you are 18 or older.', {
        fieldErrors: { acceptTerms: 'Please accept the Terms of Service and confirm you are 18 or older.' },
      });
    }
    const ageCheck = acceptAgeCheck(this.selfDeclaration, await this.selfDeclaration.check({ dateOfBirth: input.dateOfBirth }, now), now);
    const ipKey = `register-ip:${clientIp}`;
    const perIp: ThrottleRule = { limit: this.config.signupsPerIpPerHour, windowMs: 60 * MINUTE_MS };
    await this.throttle.assertAllowed(ipKey, perIp, 'Too many sign-ups from your network. Please try again later.');
    const passwordHash = await this.hasher.hash(input.password, deadlineAt);
    assertCallerWaiting(deadlineAt);
    const token = generateSessionToken();
    const expiresAt = new Date(now.getTime() + this.config.sessionAbsoluteMs);
    const user = await this.store.transaction(async (repositories, tx) => {
      const row = await repositories.accounts.insertUser({
        email: input.email,
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        dateOfBirth: input.dateOfBirth,
        termsAcceptedAt: now,
        createdAt: now,
        ageCheck,
      });
      if (!row) {
        throw new AppError('EMAIL_TAKEN', 'An account with this email already exists. Try signing in.', {
          fieldErrors: { email: 'An account with this email already exists. Try signing in.' },
        });
      }
      await tx.emit(identityEvents.userRegistered, { userId: row.id }, row.id);
      const grant = this.config.signupTokenGrant;
      const granted =
        grant > 0 ? await this.tokens.grantWithin(repositories, tx, row.id, grant, 'Sign-up grant', `signup:${row.id}`) : null;
      // A new member starts with this month's free allowance (decision 036), on top of any sign-up bonus.
      const balance = await this.tokens.topUpWithin(repositories, tx, row.id, granted?.balance ?? 0, now);
      await repositories.accounts.insertSession(row.id, hashSessionToken(token), now, expiresAt);
      return { ...toUser(row), tokens: balance };
    });
    await this.throttle.hit(ipKey, perIp);
    return { user, session: { token, expiresAt: expiresAt.toISOString() } };
  }

  async login(rawInput: unknown, clientIp: string, deadlineAt?: number): Promise<AuthResult> {
    const parsed = LoginInput.safeParse(rawInput);
    if (!parsed.success) throw validationError(parsed.error);
    const { email, password } = parsed.data;
    const accountKey = `login-account:${email}`;
    const ipKey = `login-ip:${clientIp}`;
    const tooMany = 'Too many sign-in attempts. Please wait a few minutes and try again.';
    await this.throttle.assertAllowed(accountKey, LOGIN_PER_ACCOUNT, tooMany);
    await this.throttle.assertAllowed(ipKey, LOGIN_PER_IP, tooMany);
    const row = await this.store.run(({ accounts }) => accounts.findUserByEmail(email));
    const isValid = await this.checkPassword(password, row, deadlineAt);
    if (!row || !isValid) {
      await this.throttle.hit(accountKey, LOGIN_PER_ACCOUNT);
      await this.throttle.hit(ipKey, LOGIN_PER_IP);
      throw new AppError('INVALID_CREDENTIALS', 'Invalid email or password');
    }
    await this.throttle.clear(accountKey);
    // Said only after the password is right, so it tells nothing about an account to someone guessing.
    if (row.suspended_at) {
      throw new AppError('ACCOUNT_SUSPENDED', 'Your account has been suspended. Contact support if you think this is a mistake.');
    }
    assertCallerWaiting(deadlineAt);
    const now = this.config.clock();
    const token = generateSessionToken();
    const expiresAt = new Date(now.getTime() + this.config.sessionAbsoluteMs);
    await this.store.transaction(async ({ accounts }, tx) => {
      await accounts.insertSession(row.id, hashSessionToken(token), now, expiresAt);
      await tx.emit(identityEvents.userSignedIn, { userId: row.id }, row.id);
    });
    return { user: toUser(row), session: { token, expiresAt: expiresAt.toISOString() } };
  }

  /** A member's password is always checked; an unregistered e-mail only while that leaves room for members. */
  private checkPassword(password: string, row: UserRow | null, deadlineAt: number | undefined): Promise<boolean> {
    if (row) return this.hasher.verify(password, row.password_hash, deadlineAt);
    return this.hasher.verifyUnknownEmail(password, deadlineAt);
  }

  /** Ends the session; every gateway hears of it at once (its cached session goes, its WebSockets close). */
  async logout(sessionToken: string): Promise<boolean> {
    const tokenHash = hashSessionToken(sessionToken);
    const ended = await this.store.run(({ accounts }) => accounts.deleteSession(tokenHash));
    if (ended) await this.announceSessionsEnded([tokenHash]);
    return ended;
  }

  /**
   * The member behind a session token, or null when unknown, idle too long, or past its absolute
   * lifetime. Each use counts as activity unless `touch` is false.
   */
  async resolveSession(sessionToken: string, { touch = true }: { touch?: boolean } = {}): Promise<User | null> {
    if (!sessionToken) return null;
    return this.store.run(async ({ accounts }) => {
      const session = await accounts.findSession(hashSessionToken(sessionToken));
      if (!session) return null;
      const now = this.config.clock().getTime();
      const lastSeen = new Date(session.last_seen_at).getTime();
      if (new Date(session.expires_at).getTime() <= now || lastSeen + this.config.sessionIdleMs <= now) {
        await accounts.deleteSessionById(session.session_id);
        return null;
      }
      if (touch && now - lastSeen > SESSION_TOUCH_INTERVAL_MS) await accounts.touchSession(session.session_id, new Date(now));
      return toUser(session);
    });
  }

  /** Announces ended sessions to every gateway (their caches drop them, their WebSockets close). */
  async announceSessionsEnded(tokenHashes: string[]): Promise<void> {
    for (const tokenHash of tokenHashes) {
      await this.bus
        .publishLive(SESSION_ENDED_SUBJECT, { tokenHash } satisfies SessionEnded)
        .catch((error: unknown) => logger.warn({ err: error }, 'ended session not announced to the gateways'));
    }
  }

  async findByEmail(email: string): Promise<User> {
    const row = await this.store.run(({ accounts }) => accounts.findUserByEmail(email));
    if (!row) throw new AppError('NOT_FOUND', 'No member has this e-mail address.');
    return toUser(row);
  }

  async updatePreferences(userId: string, raw: unknown): Promise<User> {
    const parsed = RatingPreferences.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const row = await this.store.run(({ accounts }) => accounts.setRatingPreferences(userId, parsed.data));
    if (!row) throw new AppError('NOT_FOUND', 'Member not found');
    return toUser(row);
  }

  /** Changes the given profile fields (names trimmed, empty ones cleared); other sessions see it once their gateway reads it again. */
  async updateProfile(userId: string, raw: unknown): Promise<User> {
    const parsed = ProfileChanges.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const changes = parsed.data;
    const fields = (['firstName', 'lastName', 'profileImageUrl'] as const).filter((field) => changes[field] !== undefined);
    const row = await this.store.transaction(async ({ accounts }, tx) => {
      const updated = await accounts.updateProfile(userId, changes);
      if (updated && fields.length > 0) await tx.emit(identityEvents.profileUpdated, { userId, fields }, userId);
      return updated;
    });
    if (!row) throw new AppError('NOT_FOUND', 'Member not found');
    return toUser(row);
  }

  async getPublicProfiles(userIds: string[]): Promise<PublicProfile[]> {
    if (userIds.length === 0) return [];
    const rows = await this.store.run(({ accounts }) => accounts.findUsersByIds([...new Set(userIds)]));
    return rows.map((row) => ({ id: row.id, firstName: row.first_name, lastName: row.last_name, profileImageUrl: row.profile_image_url }));
  }

  async getUser(userId: string): Promise<User> {
    const row = await this.store.run(({ accounts }) => accounts.findUserById(userId));
    if (!row) throw new AppError('NOT_FOUND', 'Member not found');
    return toUser(row);
  }
}
