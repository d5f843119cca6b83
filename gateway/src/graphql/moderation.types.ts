import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { AGE_ASSURANCE_LEVELS, type AgeAssuranceLevel, TAKEDOWN_REQUESTER_ROLES, type TakedownRequesterRole } from '@app/schema';
import { contractEnum } from './contract-enum';

export enum ContentRatingType {
  SAFE = 'safe',
  SUGGESTIVE = 'suggestive',
  EXPLICIT = 'explicit',
}
registerEnumType(ContentRatingType, {
  name: 'ContentRating',
  description: 'How explicit public content is. Visitors see SAFE only; members choose what they see.',
});

export enum RatingDisplayType {
  SHOW = 'show',
  BLUR = 'blur',
  HIDE = 'hide',
}
registerEnumType(RatingDisplayType, { name: 'RatingDisplay', description: 'Show, blur until clicked, or leave out.' });

export enum ModerationStateType {
  VISIBLE = 'visible',
  HIDDEN = 'hidden',
  REMOVED = 'removed',
}
registerEnumType(ModerationStateType, {
  name: 'ModerationState',
  description: 'HIDDEN: out of public view (the owner still sees it). REMOVED: gone for everyone but moderators.',
});

export enum RoleType {
  MEMBER = 'member',
  MODERATOR = 'moderator',
  ADMIN = 'admin',
}
registerEnumType(RoleType, { name: 'Role' });

export enum ReportTargetKindType {
  IMAGE = 'image',
  CHARACTER = 'character',
  REPLY = 'reply',
}
registerEnumType(ReportTargetKindType, { name: 'ReportTargetKind' });

export enum ModerationTargetKindType {
  IMAGE = 'image',
  CHARACTER = 'character',
  REPLY = 'reply',
  MEMBER = 'member',
}
registerEnumType(ModerationTargetKindType, { name: 'ModerationTargetKind' });

export enum ReportReasonType {
  MINOR = 'minor',
  NON_CONSENT = 'non_consent',
  REAL_PERSON = 'real_person',
  ILLEGAL = 'illegal',
  SPAM = 'spam',
  OTHER = 'other',
}
registerEnumType(ReportReasonType, { name: 'ReportReason' });

export enum ModerationActionType {
  HIDE = 'hide',
  REMOVE = 'remove',
  RESTORE = 'restore',
  CHANGE_RATING = 'change_rating',
  SUSPEND = 'suspend',
  UNSUSPEND = 'unsuspend',
  DISMISS = 'dismiss',
}
registerEnumType(ModerationActionType, { name: 'ModerationAction' });

export enum TakedownKindType {
  INTIMATE_IMAGE = 'intimate_image',
  RIGHTS = 'rights',
}
registerEnumType(TakedownKindType, {
  name: 'TakedownKind',
  description: 'INTIMATE_IMAGE: non-consensual intimate imagery (TAKE IT DOWN Act). RIGHTS: copyright, likeness or trademark.',
});

export enum CaseKindType {
  REPORT = 'report',
  TAKEDOWN = 'takedown',
}
registerEnumType(CaseKindType, { name: 'CaseKind', description: "REPORT: a member's report. TAKEDOWN: a takedown request." });

export enum CaseReasonType {
  MINOR = 'minor',
  NON_CONSENT = 'non_consent',
  REAL_PERSON = 'real_person',
  ILLEGAL = 'illegal',
  SPAM = 'spam',
  OTHER = 'other',
  INTIMATE_IMAGE = 'intimate_image',
  RIGHTS = 'rights',
}
registerEnumType(CaseReasonType, {
  name: 'CaseReason',
  description: "Why a case is in the queue: a report's reason (MINOR … OTHER), or a takedown's kind (INTIMATE_IMAGE, RIGHTS).",
});

export enum AuditActionType {
  HIDE = 'hide',
  REMOVE = 'remove',
  RESTORE = 'restore',
  CHANGE_RATING = 'change_rating',
  SUSPEND = 'suspend',
  UNSUSPEND = 'unsuspend',
  DISMISS = 'dismiss',
  GRANT_ROLE = 'grant_role',
  RECORD_AGE_CHECK = 'record_age_check',
}
registerEnumType(AuditActionType, {
  name: 'AuditAction',
  description: "A moderator's action, a role granted, or an age check recorded.",
});

export enum NoticeKindType {
  CONTENT_HIDDEN = 'content_hidden',
  CONTENT_REMOVED = 'content_removed',
  CONTENT_RESTORED = 'content_restored',
  RATING_CHANGED = 'rating_changed',
}
registerEnumType(NoticeKindType, { name: 'NoticeKind' });

export enum CaseStatusType {
  OPEN = 'open',
  RESOLVED = 'resolved',
}
registerEnumType(CaseStatusType, { name: 'CaseStatus' });

@ObjectType('RatingPreferences', { description: 'How the member sees public content above SAFE.' })
export class RatingPreferencesType {
  @Field(() => RatingDisplayType) suggestive!: RatingDisplayType;
  @Field(() => RatingDisplayType) explicit!: RatingDisplayType;
}

@InputType()
export class RatingPreferencesInput {
  @Field(() => RatingDisplayType) suggestive!: RatingDisplayType;
  @Field(() => RatingDisplayType) explicit!: RatingDisplayType;
}

export const AgeAssuranceLevelType = contractEnum('AgeAssuranceLevel', AGE_ASSURANCE_LEVELS, {
  valueDescriptions: { declared: 'Self-declared at sign-up.', verified: 'Confirmed by a highly effective age-assurance method.' },
});

@ObjectType('AgeAssurance', { description: "How the member's age is known." })
export class AgeAssuranceType {
  @Field(() => AgeAssuranceLevelType) level!: AgeAssuranceLevel;
  @Field(() => String) method!: string;
  @Field(() => GraphQLISODateTime) checkedAt!: string;
}

@InputType('ReportInput')
export class ReportInputType {
  @Field(() => ReportTargetKindType) targetKind!: ReportTargetKindType;
  @Field(() => ID) targetId!: string;
  @Field(() => ReportReasonType) reason!: ReportReasonType;
  @Field(() => String, { nullable: true, description: 'What the moderators should know (at most 2000 characters).' })
  details?: string | null;
}

@ObjectType('ReportReceipt')
export class ReportReceiptType {
  @Field(() => ID) caseId!: string;
}

@InputType('TakedownInput', { description: 'A takedown request. INTIMATE_IMAGE needs requester; RIGHTS needs work and authorised.' })
export class TakedownInputType {
  @Field(() => TakedownKindType) kind!: TakedownKindType;
  @Field(() => String, { description: 'Links to (or ids of) the images and characters on this site.' }) content!: string;
  @Field(() => String, { description: 'Why the content was shared without consent, or how it infringes the right.' })
  statement!: string;
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { description: 'An electronic signature: the full name, typed.' }) signature!: string;
  @Field(() => Boolean, { description: 'The good-faith statement is true.' }) goodFaith!: boolean;
  @Field(() => String, { nullable: true, description: 'INTIMATE_IMAGE: depicted_person or authorised_representative.' })
  requester?: string | null;
  @Field(() => String, { nullable: true, description: 'RIGHTS: the work or right infringed.' }) work?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'RIGHTS: the requester owns the right or may act for its owner.' })
  authorised?: boolean | null;
}

@ObjectType('TakedownReceipt', { description: 'What the requester keeps: a reference and the deadlines.' })
export class TakedownReceiptType {
  @Field(() => String) reference!: string;
  @Field(() => GraphQLISODateTime, { description: 'The content is removed by then (48 hours).' }) removalDeadline!: string;
  @Field(() => GraphQLISODateTime, { description: 'The request is resolved by then (7 business days).' }) resolutionDeadline!: string;
  @Field(() => Int, { description: 'How many items on this site the request names.' }) items!: number;
}

@ObjectType('ModerationTarget', { description: 'A piece of content as moderators see it.' })
export class ModerationTargetType {
  @Field(() => ReportTargetKindType) kind!: ReportTargetKindType;
  @Field(() => ID) id!: string;
  @Field(() => ID) ownerId!: string;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String) text!: string;
  @Field(() => String, { nullable: true, description: 'A moderators-only URL of the picture.' }) imageUrl!: string | null;
  @Field(() => Boolean) isPublic!: boolean;
  @Field(() => ContentRatingType, { nullable: true }) rating!: ContentRatingType | null;
  @Field(() => ModerationStateType) state!: ModerationStateType;
  @Field(() => String, { nullable: true, description: "For a reply: the member's message it answered." }) context!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: string;
}

export const TakedownRequesterRoleType = contractEnum('TakedownRequesterRole', TAKEDOWN_REQUESTER_ROLES, {
  description: 'Who filed a takedown.',
});

@ObjectType('TakedownRequester')
export class TakedownRequesterType {
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => String) signature!: string;
  @Field(() => TakedownRequesterRoleType) role!: TakedownRequesterRole;
}

@ObjectType('CaseReporter', { description: 'The member who filed a report.' })
export class CaseReporterType {
  @Field(() => ID) id!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { nullable: true, description: 'First and last name, when the member gave them.' }) name!: string | null;
}

@ObjectType('ModerationCase', { description: 'A report or takedown in the queue.' })
export class ModerationCaseType {
  @Field(() => ID) id!: string;
  @Field(() => CaseKindType) kind!: CaseKindType;
  @Field(() => CaseReasonType, { description: 'The report reason, or the takedown kind.' }) reason!: CaseReasonType;
  @Field(() => String, { nullable: true }) details!: string | null;
  @Field(() => ReportTargetKindType) targetKind!: ReportTargetKindType;
  @Field(() => ID) targetId!: string;
  @Field(() => ID) targetOwnerId!: string;
  @Field(() => Boolean, { description: "Whether the item's owner is suspended now." }) ownerSuspended!: boolean;
  @Field(() => CaseReporterType, {
    nullable: true,
    description: 'Who reported it (null for takedown requests, filed without an account, and once the account is deleted).',
  })
  reporter!: CaseReporterType | null;
  @Field(() => ModerationTargetType, { description: 'The item when it was reported.' }) snapshot!: ModerationTargetType;
  @Field(() => ModerationTargetType, { nullable: true, description: 'The item now (null once deleted by its owner).' })
  current!: ModerationTargetType | null;
  @Field(() => String, { nullable: true }) reference!: string | null;
  @Field(() => TakedownRequesterType, { nullable: true }) requester!: TakedownRequesterType | null;
  @Field(() => CaseStatusType) status!: CaseStatusType;
  @Field(() => GraphQLISODateTime) createdAt!: string;
  @Field(() => GraphQLISODateTime, { description: 'Act by this time.' }) deadlineAt!: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Takedowns: resolve by this time.' }) resolveBy!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) resolvedAt!: string | null;
  @Field(() => String, { nullable: true }) resolution!: string | null;
}

@ObjectType('ModerationQueue', { description: 'Open cases by deadline, soonest first (resolved: most recent first).' })
export class ModerationQueueType {
  @Field(() => [ModerationCaseType]) nodes!: ModerationCaseType[];
  @Field(() => String, { nullable: true }) endCursor!: string | null;
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => Int) openCount!: number;
}

@InputType('ModerationActionInput')
export class ModerationActionInputType {
  @Field(() => ModerationActionType) action!: ModerationActionType;
  @Field(() => ModerationTargetKindType) targetKind!: ModerationTargetKindType;
  @Field(() => ID) targetId!: string;
  @Field(() => ID, { nullable: true, description: 'The case acted on; every open case on the same target is resolved.' })
  caseId?: string | null;
  @Field(() => String, { description: 'Required: why (kept in the audit log, shown to the owner).' }) reason!: string;
  @Field(() => ContentRatingType, { nullable: true, description: 'CHANGE_RATING: the new rating.' }) rating?: ContentRatingType | null;
}

@ObjectType('AuditEntry', { description: 'One line of the append-only moderation audit log.' })
export class AuditEntryType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) occurredAt!: string;
  @Field(() => ID, { nullable: true }) actorId!: string | null;
  @Field(() => String) actorLabel!: string;
  @Field(() => AuditActionType) action!: AuditActionType;
  @Field(() => ModerationTargetKindType) targetKind!: ModerationTargetKindType;
  @Field(() => String) targetId!: string;
  @Field(() => ID, { nullable: true }) caseId!: string | null;
  @Field(() => String) reason!: string;
  @Field(() => String, { nullable: true }) detail!: string | null;
}

@ObjectType('AuditLog')
export class AuditLogType {
  @Field(() => [AuditEntryType]) nodes!: AuditEntryType[];
  @Field(() => String, { nullable: true }) endCursor!: string | null;
  @Field(() => Boolean) hasNextPage!: boolean;
}

@ObjectType('MemberNotice', { description: 'What the member is told when a moderator acts on their content.' })
export class MemberNoticeType {
  @Field(() => ID) id!: string;
  @Field(() => NoticeKindType) kind!: NoticeKindType;
  @Field(() => ReportTargetKindType) targetKind!: ReportTargetKindType;
  @Field(() => ID) targetId!: string;
  @Field(() => String) label!: string;
  @Field(() => String) reason!: string;
  @Field(() => ContentRatingType, { nullable: true }) rating!: ContentRatingType | null;
  @Field(() => GraphQLISODateTime) createdAt!: string;
}
