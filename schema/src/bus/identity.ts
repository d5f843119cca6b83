import { z } from 'zod';
import { AccessToken, AccessTokenEvent, AccessTokenInput, CreatedAccessToken, TokenScope } from './access-tokens';
import { defineEvent, defineRpc } from './contract';
import {
  AgeAssurance,
  AgeAssuranceLevel,
  AuditEntry,
  CaseStatus,
  MODERATION_LIMITS,
  MemberNotice,
  MemberSuspension,
  ModerationActioned,
  ModerationActionInput,
  ModerationCase,
  ModerationTarget,
  RatingPreferences,
  ReportFiled,
  ReportInput,
  Role,
  RoleGranted,
  TakedownFiled,
  TakedownInput,
  TakedownReceipt,
} from './moderation';

/** Passwords: 8 minimum (spec), 128 maximum so hashing cost stays bounded; no composition rules (ASVS). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const MINIMUM_AGE = 18;

export const QUOTA_KINDS = ['image', 'chat', 'character', 'story'] as const;
export const QuotaKind = z.enum(QUOTA_KINDS);
export type QuotaKind = z.infer<typeof QuotaKind>;

/** Free-plan monthly limits (SPEC §9). */
export const FREE_PLAN_MONTHLY_QUOTAS: Record<QuotaKind, number> = { image: 3, chat: 10, character: 2, story: 2 };

export const Email = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .toLowerCase()
  .max(254, 'Please enter a valid email address')
  .pipe(z.email({ error: 'Please enter a valid email address' }));

const optionalName = z
  .string()
  .trim()
  .max(100, 'Must be at most 100 characters')
  .optional()
  .nullable()
  .transform((value) => (value ? value : null));

export const RegisterInput = z
  .object({
    email: Email,
    password: z
      .string({ error: 'Password must be at least 8 characters' })
      .min(PASSWORD_MIN_LENGTH, 'Password must be at least 8 characters')
      .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
    confirmPassword: z.string({ error: "Passwords don't match" }),
    firstName: optionalName,
    lastName: optionalName,
    dateOfBirth: z
      .string({ error: 'Please enter your date of birth' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter your date of birth as YYYY-MM-DD')
      .refine((value) => isRealDate(value), 'Please enter a valid date of birth'),
    acceptTerms: z.boolean({ error: 'You must accept the Terms of Service and confirm you are 18 or older' }),
  })
  .refine((input) => input.password === input.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type RegisterInput = z.input<typeof RegisterInput>;

export const LoginInput = z.object({
  email: Email,
  password: z.string().min(1, 'Please enter your password').max(PASSWORD_MAX_LENGTH),
});

function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export const User = z.object({
  id: z.string().uuid(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  createdAt: z.string().datetime(),
  tokens: z.number().int(),
  role: Role,
  /** How suggestive and explicit public content is shown to this member. */
  ratingPreferences: RatingPreferences,
  ageAssurance: AgeAssurance,
});
export type User = z.infer<typeof User>;

export const PublicProfile = User.pick({ id: true, firstName: true, lastName: true, profileImageUrl: true });
export type PublicProfile = z.infer<typeof PublicProfile>;

const ClientContext = z.object({ clientIp: z.string().max(64) });

export const Session = z.object({ token: z.string(), expiresAt: z.string().datetime() });
export const AuthResult = z.object({ user: User, session: Session });
export type AuthResult = z.infer<typeof AuthResult>;

export const TokenChange = z.object({
  userId: z.string().uuid(),
  balance: z.number().int(),
  delta: z.number().int(),
  reason: z.string(),
  occurredAt: z.string().datetime(),
});
export type TokenChange = z.infer<typeof TokenChange>;

export const QuotaUsage = z.object({
  kind: QuotaKind,
  used: z.number().int(),
  limit: z.number().int(),
  periodStart: z.string().datetime(),
  periodEnd: z.string().datetime(),
});
export type QuotaUsage = z.infer<typeof QuotaUsage>;

export const DashboardStats = z.object({
  imagesGenerated: z.number().int(),
  chatMessages: z.number().int(),
  charactersCreated: z.number().int(),
  storiesStarted: z.number().int(),
  totalLikes: z.number().int(),
  publicImages: z.number().int(),
});
export type DashboardStats = z.infer<typeof DashboardStats>;

/** Tokens a free member's balance is topped up to each UTC month: 3 images + 10 chat messages + 2 stories, one token per generation the free plan includes. */
export const FREE_MONTHLY_TOKEN_ALLOWANCE = 15;

export const PLAN_KINDS = ['free'] as const;
export const PlanKind = z.enum(PLAN_KINDS);
export type PlanKind = z.infer<typeof PlanKind>;

/** The Plans screen: the member's plan, this month's use of each allowance, the balance and when the allowance renews. */
export const PlanStatus = z.object({
  plan: PlanKind,
  monthlyTokenAllowance: z.number().int(),
  balance: z.number().int(),
  renewsAt: z.string().datetime(),
  quotas: z.array(QuotaUsage),
});
export type PlanStatus = z.infer<typeof PlanStatus>;

/** The dashboard counters an achievement can be measured by. */
export type StatsCounter = keyof DashboardStats;

/** SPEC §9's six achievements, in the spec's order: earned once a counter reaches its threshold, and kept. */
export const ACHIEVEMENT_KEYS = [
  'first_creation',
  'conversation_starter',
  'character_creator',
  'popular_creator',
  'productive_creator',
  'social_butterfly',
] as const;
export const AchievementKey = z.enum(ACHIEVEMENT_KEYS);
export type AchievementKey = z.infer<typeof AchievementKey>;

export interface AchievementDefinition {
  key: AchievementKey;
  threshold: number;
  counter: StatsCounter;
}

export const ACHIEVEMENTS: readonly AchievementDefinition[] = [
  { key: 'first_creation', threshold: 1, counter: 'imagesGenerated' },
  { key: 'conversation_starter', threshold: 1, counter: 'chatMessages' },
  { key: 'character_creator', threshold: 1, counter: 'charactersCreated' },
  { key: 'popular_creator', threshold: 100, counter: 'totalLikes' },
  { key: 'productive_creator', threshold: 50, counter: 'imagesGenerated' },
  { key: 'social_butterfly', threshold: 10, counter: 'publicImages' },
];

/** One achievement as a member sees it: `progress` is the counter, capped at the threshold. */
export const Achievement = z.object({
  key: AchievementKey,
  threshold: z.number().int(),
  progress: z.number().int(),
  earned: z.boolean(),
  earnedAt: z.string().datetime().nullable(),
});
export type Achievement = z.infer<typeof Achievement>;

/** Achievements a member has reached with these counters (earned or not yet recorded). */
export const reachedAchievements = (stats: DashboardStats): AchievementKey[] =>
  ACHIEVEMENTS.filter((definition) => stats[definition.counter] >= definition.threshold).map((definition) => definition.key);

export const AchievementEarned = z.object({ userId: z.string().uuid(), achievement: Achievement });
export type AchievementEarned = z.infer<typeof AchievementEarned>;

const profileName = z
  .string({ error: 'Must be text' })
  .trim()
  .max(100, 'Must be at most 100 characters')
  .nullable()
  .transform((value) => (value ? value : null));

/**
 * A change to a member's profile: a field left out stays as it is, an empty name becomes null. The picture is only ever
 * a path this platform made (an upload it stored), never an address a member typed.
 */
export const ProfileChanges = z.object({
  firstName: profileName.optional(),
  lastName: profileName.optional(),
  profileImageUrl: z
    .string()
    .max(2048, 'Must be at most 2048 characters')
    .regex(/^\/(?![/\\])[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/, 'Must be a path on this site')
    .refine((value) => !value.split('/').includes('..'), 'Must be a path on this site')
    .nullable()
    .optional(),
});
export type ProfileChanges = z.input<typeof ProfileChanges>;

/** What a member edits themselves (the picture comes from an upload instead). */
export const ProfileNamesInput = ProfileChanges.pick({ firstName: true, lastName: true });

export const INTEREST_KINDS = ['feature', 'vip_subscribe'] as const;
export type InterestKind = (typeof INTEREST_KINDS)[number];
export const InterestInput = z.object({
  kind: z.enum(INTEREST_KINDS, { error: 'kind must be feature or vip_subscribe' }),
  label: z.string({ error: 'label is required' }).regex(/^[a-z0-9-]{1,64}$/, 'label must be 1-64 lowercase letters, digits or dashes'),
});
export type InterestInput = z.infer<typeof InterestInput>;

const UserRef = z.object({ userId: z.string().uuid() });
const IdempotencyKey = z.string().min(1).max(200);
const Reason = z.string().trim().min(1).max(200);

export const identityRpc = {
  register: defineRpc('svc.identity.register', z.object({ input: RegisterInput }).merge(ClientContext), AuthResult),
  login: defineRpc('svc.identity.login', z.object({ input: LoginInput }).merge(ClientContext), AuthResult),
  logout: defineRpc('svc.identity.logout', z.object({ sessionToken: z.string().max(200) }), z.object({ ok: z.boolean() })),
  resolveSession: defineRpc(
    'svc.identity.session.resolve',
    // `touch: false` checks the session without counting as activity (the gateway's periodic WebSocket check).
    z.object({ sessionToken: z.string().max(200), touch: z.boolean().default(true) }),
    // `scopes` is null for a browser session (it may do anything its member may), a list for an access token.
    z.object({ user: User.nullable(), scopes: z.array(TokenScope).nullable().default(null) }),
  ),
  createAccessToken: defineRpc('svc.identity.token.create', UserRef.extend({ input: AccessTokenInput }), CreatedAccessToken),
  listAccessTokens: defineRpc('svc.identity.token.list', UserRef, z.object({ tokens: z.array(AccessToken) })),
  revokeAccessToken: defineRpc(
    'svc.identity.token.revoke',
    UserRef.extend({ tokenId: z.string().uuid() }),
    z.object({ id: z.string().uuid() }),
  ),
  getUser: defineRpc('svc.identity.user.get', UserRef, User),
  /** Public face of up to 100 members (name and avatar only), for creator credits; unknown ids are left out. */
  getPublicProfiles: defineRpc(
    'svc.identity.user.profiles',
    z.object({ userIds: z.array(z.string().uuid()).max(100) }),
    z.object({ profiles: z.array(PublicProfile) }),
  ),
  grantTokens: defineRpc(
    'svc.identity.tokens.grant',
    z.object({ email: Email, amount: z.number().int().min(1).max(1_000_000), reason: Reason, idempotencyKey: IdempotencyKey }),
    TokenChange,
  ),
  /** Debits tokens and, when `quota` is given, counts one use of that free-plan quota, atomically. */
  debitTokens: defineRpc(
    'svc.identity.tokens.debit',
    UserRef.extend({
      amount: z.number().int().min(1).max(1000),
      reason: Reason,
      idempotencyKey: IdempotencyKey,
      quota: QuotaKind.optional(),
    }),
    TokenChange,
  ),
  /** Reverses a debit (tokens and quota use) exactly once; a repeat is a no-op, and an unknown key is remembered so its debit, arriving late, is refused. */
  refundTokens: defineRpc(
    'svc.identity.tokens.refund',
    UserRef.extend({ debitIdempotencyKey: IdempotencyKey, reason: Reason }),
    TokenChange.extend({ refunded: z.boolean() }),
  ),
  /** Counts one use of a free-plan quota without a token cost (e.g. character creation). */
  consumeQuota: defineRpc('svc.identity.quota.consume', UserRef.extend({ kind: QuotaKind, idempotencyKey: IdempotencyKey }), QuotaUsage),
  getQuotas: defineRpc('svc.identity.quota.get', UserRef, z.object({ quotas: z.array(QuotaUsage) })),
  getStats: defineRpc('svc.identity.stats.get', UserRef, DashboardStats),
  /** Records a visitor's or member's interest (landing page); only the member id, never the address, reaches the event. */
  recordInterest: defineRpc(
    'svc.identity.interest.record',
    z.object({ interest: InterestInput, userId: z.string().uuid().nullable() }).merge(ClientContext),
    z.object({ recorded: z.boolean() }),
  ),

  /** A member's report of content the gateway found and described (`target`); it lands in the moderation queue. */
  fileReport: defineRpc(
    'svc.identity.moderation.report',
    z.object({ reporterId: z.string().uuid(), input: ReportInput, target: ModerationTarget }),
    z.object({ caseId: z.string().uuid() }),
  ),
  /** A takedown request (no account needed): one case per item found, one reference, rate-limited per address. */
  fileTakedown: defineRpc(
    'svc.identity.moderation.takedown',
    z.object({ input: TakedownInput, targets: z.array(ModerationTarget).max(MODERATION_LIMITS.describeMax) }).merge(ClientContext),
    TakedownReceipt,
  ),
  listCases: defineRpc(
    'svc.identity.moderation.cases',
    z.object({
      status: CaseStatus.default('open'),
      first: z.number().int().min(1).max(MODERATION_LIMITS.pageSizeMax).default(50),
      after: z.string().max(200).nullish(),
    }),
    z.object({ cases: z.array(ModerationCase), nextCursor: z.string().nullable(), openCount: z.number().int() }),
  ),
  /** A moderator's action; `target` is the content as its service described it (null for member actions). */
  takeAction: defineRpc(
    'svc.identity.moderation.act',
    z.object({ moderatorId: z.string().uuid(), input: ModerationActionInput, target: ModerationTarget.nullable() }),
    AuditEntry,
  ),
  listAudit: defineRpc(
    'svc.identity.moderation.audit',
    z.object({
      first: z.number().int().min(1).max(MODERATION_LIMITS.pageSizeMax).default(50),
      after: z.string().max(200).nullish(),
    }),
    z.object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() }),
  ),
  listNotices: defineRpc('svc.identity.notice.list', UserRef, z.object({ notices: z.array(MemberNotice) })),
  dismissNotice: defineRpc('svc.identity.notice.dismiss', UserRef.extend({ noticeId: z.string().uuid() }), z.object({ ok: z.boolean() })),
  /** Admins (and the admin command line, with a null actor) give a member a role. */
  grantRole: defineRpc(
    'svc.identity.role.grant',
    z.object({ email: Email, role: Role, actorId: z.string().uuid().nullable(), reason: Reason }),
    User,
  ),
  /** Changes a member's names or picture (only the given fields); answers the member as they now are. */
  updateProfile: defineRpc('svc.identity.profile.update', UserRef.extend({ changes: ProfileChanges }), User),
  /** All six achievements with the member's progress, in SPEC order. */
  getAchievements: defineRpc('svc.identity.achievements.get', UserRef, z.object({ achievements: z.array(Achievement) })),
  /** The member's plan, allowance, balance (after this month's top-up), renewal and quotas. */
  getPlan: defineRpc('svc.identity.plan.get', UserRef, PlanStatus),
  findMember: defineRpc('svc.identity.user.find', z.object({ email: Email }), User),
  updatePreferences: defineRpc('svc.identity.preferences.update', UserRef.extend({ ratingPreferences: RatingPreferences }), User),
} as const;

/** A member's age-assurance level changed (operators watch verifications as they would role grants). */
export const AgeAssured = z.object({
  userId: z.string().uuid(),
  level: AgeAssuranceLevel,
  method: z.string(),
  auditId: z.string().uuid(),
});

export const identityEvents = {
  userRegistered: defineEvent('evt.identity.user.registered', 1, z.object({ userId: z.string().uuid() })),
  userSignedIn: defineEvent('evt.identity.user.signed_in', 1, z.object({ userId: z.string().uuid() })),
  tokensChanged: defineEvent('evt.identity.tokens.changed', 1, TokenChange),
  interestRecorded: defineEvent(
    'evt.identity.interest.recorded',
    1,
    z.object({ kind: z.enum(INTEREST_KINDS), label: z.string(), userId: z.string().uuid().nullable() }),
  ),
  reportFiled: defineEvent('evt.identity.report.filed', 1, ReportFiled),
  takedownFiled: defineEvent('evt.identity.takedown.filed', 1, TakedownFiled),
  moderationActioned: defineEvent('evt.identity.moderation.actioned', 1, ModerationActioned),
  memberSuspended: defineEvent('evt.identity.member.suspended', 1, MemberSuspension),
  memberUnsuspended: defineEvent('evt.identity.member.unsuspended', 1, MemberSuspension),
  roleGranted: defineEvent('evt.identity.role.granted', 1, RoleGranted),
  ageAssured: defineEvent('evt.identity.member.age_assured', 1, AgeAssured),
  /** Names only which fields changed: the names themselves stay in identity's database. */
  profileUpdated: defineEvent(
    'evt.identity.profile.updated',
    1,
    z.object({ userId: z.string().uuid(), fields: z.array(z.enum(['firstName', 'lastName', 'profileImageUrl'])) }),
  ),
  achievementEarned: defineEvent(
    'evt.identity.achievement.earned',
    1,
    z.object({ userId: z.string().uuid(), key: AchievementKey, earnedAt: z.string().datetime() }),
  ),
  accessTokenCreated: defineEvent('evt.identity.access_token.created', 1, AccessTokenEvent),
  accessTokenRevoked: defineEvent('evt.identity.access_token.revoked', 1, AccessTokenEvent),
} as const;

/** Live (not stored) balance changes on `live.identity.tokens.<userId>`, published after each ledger commit. */
export const tokensLiveSubject = (userId: string) => `live.identity.tokens.${userId}`;
export const TOKENS_LIVE_SUBJECTS = 'live.identity.tokens.*';

/**
 * A session that has ended (sign-out), as the SHA-256 of its token: every gateway drops it from its session
 * cache and closes the WebSockets it opened at once. Sign-outs are rare, so every gateway hears all of them.
 */
export const SESSION_ENDED_SUBJECT = 'live.identity.session.ended';
export const SessionEnded = z.object({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/) });
export type SessionEnded = z.infer<typeof SessionEnded>;

/** Live (not stored) achievements earned, on `live.identity.achievements.<userId>`, published after the commit that recorded them. */
export const achievementsLiveSubject = (userId: string) => `live.identity.achievements.${userId}`;
export const ACHIEVEMENTS_LIVE_SUBJECTS = 'live.identity.achievements.*';
