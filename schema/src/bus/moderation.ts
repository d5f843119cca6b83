import { z } from 'zod';

/**
 * Trust and safety contracts shared by identity (roles, cases, audit log, notices), media and chat (the
 * content a rating or a moderation action applies to) and the gateway. See docs/decisions/029-moderation.md.
 */

const Id = z.string().uuid();

/** How explicit a public image or character is; set by its owner when publishing, changed by moderators. */
export const CONTENT_RATINGS = ['safe', 'suggestive', 'explicit'] as const;
export const ContentRating = z.enum(CONTENT_RATINGS, { error: 'rating must be safe, suggestive or explicit' });
export type ContentRating = z.infer<typeof ContentRating>;
/** Publishing without naming a rating takes the most restrictive one: a wrong label should hide, never expose. */
export const UNRATED_DEFAULT: ContentRating = 'explicit';

/** What a member does with content of a rating above safe: show it, blur it until clicked, or leave it out. */
export const RATING_DISPLAYS = ['show', 'blur', 'hide'] as const;
export const RatingDisplay = z.enum(RATING_DISPLAYS, { error: 'each rating must be show, blur or hide' });
export type RatingDisplay = z.infer<typeof RatingDisplay>;
export const RatingPreferences = z.object({ suggestive: RatingDisplay, explicit: RatingDisplay });
export type RatingPreferences = z.infer<typeof RatingPreferences>;
/** Nothing above safe is shown unblurred until the member opts in (TRUST-AND-SAFETY 22). */
export const DEFAULT_RATING_PREFERENCES: RatingPreferences = { suggestive: 'blur', explicit: 'blur' };

/** Which ratings a viewer's lists and reads include; visitors (and, when required, unverified members) get safe only. */
export const ViewerRatings = z.array(ContentRating).min(1).max(3).default(['safe']);
export type ViewerRatings = z.infer<typeof ViewerRatings>;

/** Content a moderator hid (its owner still sees it) or removed (nobody but moderators does). */
export const MODERATION_STATES = ['visible', 'hidden', 'removed'] as const;
export const ModerationState = z.enum(MODERATION_STATES);
export type ModerationState = z.infer<typeof ModerationState>;

export const ROLES = ['member', 'moderator', 'admin'] as const;
export const Role = z.enum(ROLES, { error: 'role must be member, moderator or admin' });
export type Role = z.infer<typeof Role>;
export const hasRole = (role: Role, needed: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed);

/** How a member's age is known: declared at sign-up (self-declaration) or confirmed by an age-assurance provider. */
export const AGE_ASSURANCE_LEVELS = ['declared', 'verified'] as const;
export const AgeAssuranceLevel = z.enum(AGE_ASSURANCE_LEVELS);
export type AgeAssuranceLevel = z.infer<typeof AgeAssuranceLevel>;
export const AgeAssurance = z.object({
  level: AgeAssuranceLevel,
  /** `self_declaration`, or the provider adapter's name. */
  method: z.string().max(60),
  checkedAt: z.string().datetime(),
});
export type AgeAssurance = z.infer<typeof AgeAssurance>;

export const REPORT_TARGET_KINDS = ['image', 'character', 'reply'] as const;
export const ReportTargetKind = z.enum(REPORT_TARGET_KINDS, { error: 'targetKind must be image, character or reply' });
export type ReportTargetKind = z.infer<typeof ReportTargetKind>;
export const MODERATION_TARGET_KINDS = [...REPORT_TARGET_KINDS, 'member'] as const;
export const ModerationTargetKind = z.enum(MODERATION_TARGET_KINDS);
export type ModerationTargetKind = z.infer<typeof ModerationTargetKind>;

export const REPORT_REASONS = ['minor', 'non_consent', 'real_person', 'illegal', 'spam', 'other'] as const;
export const ReportReason = z.enum(REPORT_REASONS, {
  error: 'reason must be minor, non_consent, real_person, illegal, spam or other',
});
export type ReportReason = z.infer<typeof ReportReason>;

/** Hours a moderator has to act on a report, by its reason; the queue sorts by the deadline. */
export const REPORT_DEADLINE_HOURS: Record<ReportReason, number> = {
  minor: 24,
  non_consent: 24,
  illegal: 24,
  real_person: 48,
  other: 72,
  spam: 168,
};
/** TAKE IT DOWN Act: a valid request's content is removed within 48 hours. */
export const TAKEDOWN_REMOVAL_HOURS = 48;
/** Card-network rules: every complaint resolved within 7 business days. */
export const TAKEDOWN_RESOLUTION_BUSINESS_DAYS = 7;

export const MODERATION_LIMITS = {
  reportDetails: 2000,
  reason: 1000,
  takedownText: 4000,
  takedownField: 200,
  snapshotText: 4000,
  pageSizeMax: 100,
  describeMax: 50,
} as const;

/** A member's report: POST /api/reports and `reportContent`. */
export const ReportInput = z.object({
  targetKind: ReportTargetKind,
  targetId: z.string({ error: 'targetId is required' }).uuid('targetId must be an id'),
  reason: ReportReason,
  details: z
    .string()
    .trim()
    .max(MODERATION_LIMITS.reportDetails, `Details must be at most ${MODERATION_LIMITS.reportDetails} characters`)
    .nullish()
    .transform((value) => value || null),
});
export type ReportInput = z.input<typeof ReportInput>;

const requiredText = (max: number, message: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

/** Who filed a takedown: the person depicted, someone acting for them, or (for rights) the holder or their agent. */
export const TAKEDOWN_REQUESTER_ROLES = ['depicted_person', 'authorised_representative', 'rights_holder'] as const;
export type TakedownRequesterRole = (typeof TAKEDOWN_REQUESTER_ROLES)[number];

const TakedownCommon = z.object({
  /** Links to (or ids of) the images and characters on this site: what the request is about. */
  content: requiredText(MODERATION_LIMITS.takedownText, 'Please give the links to the content on this site.'),
  name: requiredText(MODERATION_LIMITS.takedownField, 'Please enter your full name.'),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .toLowerCase()
    .max(254, 'Please enter a valid email address')
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  /** An electronic signature: the requester types their full name. */
  signature: requiredText(MODERATION_LIMITS.takedownField, 'Please sign by typing your full name.'),
  goodFaith: z.literal(true, { error: 'Please confirm the good-faith statement.' }),
});

/** TAKE IT DOWN Act §3(a)(2): identification, a good-faith statement of non-consent, contact information, a signature. */
export const IntimateImageTakedown = TakedownCommon.extend({
  kind: z.literal('intimate_image'),
  /** Whether the requester is the person depicted or acts for them. */
  requester: z.enum(['depicted_person', 'authorised_representative'] as const satisfies readonly TakedownRequesterRole[], {
    error: 'Please say whether you are the person shown or act for them.',
  }),
  statement: requiredText(MODERATION_LIMITS.takedownText, 'Please describe why the content was shared without consent.'),
});

/** A rights complaint (copyright, likeness or trademark): the work, the content, a statement of authority. */
export const RightsTakedown = TakedownCommon.extend({
  kind: z.literal('rights'),
  work: requiredText(MODERATION_LIMITS.takedownText, 'Please describe the work or right that is infringed.'),
  statement: requiredText(MODERATION_LIMITS.takedownText, 'Please explain how the content infringes it.'),
  authorised: z.literal(true, { error: 'Please confirm you own the right or may act for its owner.' }),
});

export const TakedownInput = z.discriminatedUnion('kind', [IntimateImageTakedown, RightsTakedown], {
  error: 'kind must be intimate_image or rights',
});
export type TakedownInput = z.input<typeof TakedownInput>;
export type TakedownRequest = z.output<typeof TakedownInput>;

/** What the requester is told: the reference to quote and the deadlines the site holds itself to. */
export const TakedownReceipt = z.object({
  reference: z.string(),
  removalDeadline: z.string().datetime(),
  resolutionDeadline: z.string().datetime(),
  items: z.number().int(),
});
export type TakedownReceipt = z.infer<typeof TakedownReceipt>;

/** A piece of content as its owning service describes it to moderators: the item in context. */
export const ModerationTarget = z.object({
  kind: ReportTargetKind,
  id: Id,
  ownerId: Id,
  /** A character's name, or the conversation's character for a reply. */
  title: z.string().nullable(),
  /** The prompt, description or reply text (cut to the snapshot length). */
  text: z.string(),
  /** The image to show (for an image, or a character with an avatar): a path under /api. */
  imageUrl: z.string().nullable(),
  isPublic: z.boolean(),
  rating: ContentRating.nullable(),
  state: ModerationState,
  /** For a reply: the member's message it answered. */
  context: z.string().nullable(),
  createdAt: z.string().datetime(),
});
export type ModerationTarget = z.infer<typeof ModerationTarget>;

export const CASE_KINDS = ['report', 'takedown'] as const;
export const CaseKind = z.enum(CASE_KINDS);
export type CaseKind = z.infer<typeof CaseKind>;
export const TAKEDOWN_KINDS = ['intimate_image', 'rights'] as const;
export const TakedownKind = z.enum(TAKEDOWN_KINDS);
/** Why a case is in the queue: a report's reason, or a takedown's kind. */
export const CASE_REASONS = [...REPORT_REASONS, ...TAKEDOWN_KINDS] as const;
export const CaseReason = z.enum(CASE_REASONS);
export type CaseReason = z.infer<typeof CaseReason>;
export const CASE_STATUSES = ['open', 'resolved'] as const;
export const CaseStatus = z.enum(CASE_STATUSES);
export type CaseStatus = z.infer<typeof CaseStatus>;

export const CaseReporter = z.object({
  id: Id,
  email: z.string(),
  /** First and last name, when the member gave them. */
  name: z.string().nullable(),
});
export type CaseReporter = z.infer<typeof CaseReporter>;

export const ModerationCase = z.object({
  id: Id,
  kind: CaseKind,
  /** A report reason, or the takedown's kind (`intimate_image`, `rights`). */
  reason: CaseReason,
  details: z.string().nullable(),
  targetKind: ReportTargetKind,
  targetId: Id,
  targetOwnerId: Id,
  /** Whether the item's owner is suspended now (moderators are offered unsuspend rather than suspend). */
  ownerSuspended: z.boolean(),
  /** The item as it was when reported (kept even if it later changes or goes). */
  snapshot: ModerationTarget,
  reporterId: Id.nullable(),
  /** The reporting member (moderators only); null for takedowns, which need no account, and once the account is deleted. */
  reporter: CaseReporter.nullable(),
  /** Takedowns: the reference the requester holds, and who they are (moderators only). */
  reference: z.string().nullable(),
  requester: z.object({ name: z.string(), email: z.string(), signature: z.string(), role: z.enum(TAKEDOWN_REQUESTER_ROLES) }).nullable(),
  status: CaseStatus,
  createdAt: z.string().datetime(),
  /** Act by: the report's deadline, or a takedown's 48-hour removal deadline. */
  deadlineAt: z.string().datetime(),
  /** Takedowns: resolved by (7 business days). */
  resolveBy: z.string().datetime().nullable(),
  resolvedAt: z.string().datetime().nullable(),
  resolution: z.string().nullable(),
});
export type ModerationCase = z.infer<typeof ModerationCase>;

export const MODERATION_ACTIONS = ['hide', 'remove', 'restore', 'change_rating', 'suspend', 'unsuspend', 'dismiss'] as const;
export const ModerationActionKind = z.enum(MODERATION_ACTIONS, {
  error: 'action must be hide, remove, restore, change_rating, suspend, unsuspend or dismiss',
});
export type ModerationActionKind = z.infer<typeof ModerationActionKind>;

/** A moderator's decision; `caseId` when taken from the queue (it resolves the open cases on the same target). */
export const ModerationActionInput = z
  .object({
    action: ModerationActionKind,
    targetKind: ModerationTargetKind,
    targetId: Id,
    caseId: Id.nullish(),
    reason: z
      .string({ error: 'Please give a reason.' })
      .trim()
      .min(1, 'Please give a reason.')
      .max(MODERATION_LIMITS.reason, `The reason must be at most ${MODERATION_LIMITS.reason} characters`),
    rating: ContentRating.nullish(),
  })
  .refine((input) => input.action !== 'change_rating' || input.rating, { message: 'Choose the new rating.', path: ['rating'] })
  .refine((input) => ['suspend', 'unsuspend'].includes(input.action) === (input.targetKind === 'member'), {
    message: 'Suspend and unsuspend apply to members; the other actions to content.',
    path: ['action'],
  })
  .refine((input) => input.action !== 'change_rating' || input.targetKind !== 'reply', {
    message: 'Replies carry no rating.',
    path: ['action'],
  })
  .refine((input) => input.action !== 'dismiss' || input.caseId, { message: 'Only a case can be dismissed.', path: ['caseId'] });
export type ModerationActionInput = z.input<typeof ModerationActionInput>;

/** What the audit log records: moderators' actions, role grants and age checks. */
export const AUDIT_ACTIONS = [...MODERATION_ACTIONS, 'grant_role', 'record_age_check'] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/** One line of the append-only audit log: who did what, to what, when and why. */
export const AuditEntry = z.object({
  id: Id,
  occurredAt: z.string().datetime(),
  actorId: Id.nullable(),
  /** The moderator's e-mail at the time (or `command line`, for grants made there). */
  actorLabel: z.string(),
  action: AuditAction,
  targetKind: ModerationTargetKind,
  targetId: z.string(),
  caseId: Id.nullable(),
  reason: z.string(),
  /** Action details: the new rating, the role granted. */
  detail: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const NOTICE_KINDS = ['content_hidden', 'content_removed', 'content_restored', 'rating_changed'] as const;
export const NoticeKind = z.enum(NOTICE_KINDS);
/** What a member is told when a moderator acts on their content. */
export const MemberNotice = z.object({
  id: Id,
  kind: NoticeKind,
  targetKind: ReportTargetKind,
  targetId: Id,
  /** The character's name or the start of the prompt, so the member knows which item. */
  label: z.string(),
  reason: z.string(),
  rating: ContentRating.nullable(),
  createdAt: z.string().datetime(),
});
export type MemberNotice = z.infer<typeof MemberNotice>;

/** Events identity appends; media and chat apply content actions, operators alert on all of them. */
export const ReportFiled = z.object({
  caseId: Id,
  targetKind: ReportTargetKind,
  targetId: Id,
  ownerId: Id,
  reason: ReportReason,
  reporterId: Id,
});
export const TakedownFiled = z.object({
  reference: z.string(),
  kind: TakedownKind,
  caseIds: z.array(Id),
  targets: z.array(z.object({ kind: ReportTargetKind, id: Id })),
  removalDeadline: z.string().datetime(),
});
export const ModerationActioned = z.object({
  auditId: Id,
  action: ModerationActionKind,
  targetKind: ModerationTargetKind,
  targetId: Id,
  ownerId: Id.nullable(),
  rating: ContentRating.nullable(),
  caseId: Id.nullable(),
  moderatorId: Id.nullable(),
});
export type ModerationActioned = z.infer<typeof ModerationActioned>;
export const MemberSuspension = z.object({ userId: Id, auditId: Id, moderatorId: Id.nullable() });
export type MemberSuspension = z.infer<typeof MemberSuspension>;
export const RoleGranted = z.object({ userId: Id, role: Role, auditId: Id, grantedBy: Id.nullable() });
