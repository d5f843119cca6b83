import type { AuditEntry, ModerationCase, ModerationTarget, User } from '@app/schema';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { updateRatingPreferences } from '../account/account.operations';
import {
  dismissNotice,
  grantRole,
  listNotices,
  moderate,
  moderationAuditLog,
  moderationQueue,
  reportContent,
  requestTakedown,
} from '../moderation/moderation.operations';
import { type GatewayContext, callerOf } from './context';
import {
  type AuditActionType,
  AuditEntryType,
  AuditLogType,
  CaseStatusType,
  MemberNoticeType,
  ModerationActionInputType,
  type ModerationCaseType,
  ModerationQueueType,
  type ModerationTargetKindType,
  type ModerationTargetType,
  RatingPreferencesInput,
  ReportInputType,
  ReportReceiptType,
  RoleType,
  TakedownInputType,
  TakedownReceiptType,
} from './moderation.types';
import { UserType } from './types';

const toTargetType = (target: ModerationTarget) => target as unknown as ModerationTargetType;
// The bus and GraphQL enums hold the same values; only their TypeScript names differ.
const toAuditType = (entry: AuditEntry): AuditEntryType => ({
  ...entry,
  action: entry.action as AuditActionType,
  targetKind: entry.targetKind as ModerationTargetKindType,
});

/** Reports, takedowns, the moderation queue and audit log, members' notices and their rating preferences. */
@Resolver()
export class ModerationResolver {
  @Mutation(() => ReportReceiptType, {
    description: "Reports a public image or character, or an AI reply in one's own conversation, to the moderators.",
  })
  async reportContent(@Arg('input', () => ReportInputType) input: ReportInputType, @Ctx() context: GatewayContext) {
    return reportContent(context, callerOf(context), { ...input });
  }

  @Mutation(() => TakedownReceiptType, {
    description: 'A takedown request; no account needed. Rate-limited per address. The receipt holds the reference and deadlines.',
  })
  async requestTakedown(@Arg('input', () => TakedownInputType) input: TakedownInputType, @Ctx() context: GatewayContext) {
    // GraphQL sends explicit nulls for fields left out; the takedown form's contract knows them as absent.
    const fields = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));
    return requestTakedown(context, callerOf(context), fields);
  }

  @Query(() => ModerationQueueType, { description: 'Moderators: the queue, soonest deadline first, each case with the item now.' })
  async moderationQueue(
    @Ctx() context: GatewayContext,
    @Arg('status', () => CaseStatusType, { defaultValue: CaseStatusType.OPEN }) status: CaseStatusType,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<ModerationQueueType> {
    const queue = await moderationQueue(context, callerOf(context), status, { first, after });
    return {
      nodes: queue.cases.map(({ filed, current }) => toCaseType(filed, current)),
      endCursor: queue.nextCursor,
      hasNextPage: queue.nextCursor !== null,
      openCount: queue.openCount,
    };
  }

  @Mutation(() => AuditEntryType, {
    description: 'Moderators: hide, remove, restore, change a rating, dismiss a case, suspend or unsuspend a member. A reason is required.',
  })
  async moderate(
    @Arg('input', () => ModerationActionInputType) input: ModerationActionInputType,
    @Ctx() context: GatewayContext,
  ): Promise<AuditEntryType> {
    return toAuditType(await moderate(context, callerOf(context), { ...input }));
  }

  @Query(() => AuditLogType, { description: 'Moderators: the append-only audit log, newest first.' })
  async moderationAuditLog(
    @Ctx() context: GatewayContext,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<AuditLogType> {
    const page = await moderationAuditLog(context, callerOf(context), { first, after });
    return { nodes: page.entries.map(toAuditType), endCursor: page.nextCursor, hasNextPage: page.nextCursor !== null };
  }

  @Mutation(() => UserType, { description: 'Admins: gives a member a role (member takes moderator or admin away).' })
  grantRole(
    @Arg('email', () => String) email: string,
    @Arg('role', () => RoleType) role: RoleType,
    @Arg('reason', () => String) reason: string,
    @Ctx() context: GatewayContext,
  ): Promise<User> {
    return grantRole(context, callerOf(context), { email, role, reason });
  }

  @Query(() => [MemberNoticeType], { description: "Moderators' decisions on my content that I have not dismissed, newest first." })
  async myNotices(@Ctx() context: GatewayContext): Promise<MemberNoticeType[]> {
    return (await listNotices(context, callerOf(context))) as MemberNoticeType[];
  }

  @Mutation(() => Boolean)
  dismissNotice(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<boolean> {
    return dismissNotice(context, callerOf(context), id);
  }

  @Mutation(() => UserType, { description: 'How I see suggestive and explicit public content: show, blur or hide.' })
  updateRatingPreferences(
    @Arg('input', () => RatingPreferencesInput) input: RatingPreferencesInput,
    @Ctx() context: GatewayContext,
  ): Promise<User> {
    return updateRatingPreferences(context, callerOf(context), { ...input });
  }
}

function toCaseType(filed: ModerationCase, current: ModerationTarget | null): ModerationCaseType {
  return {
    ...(filed as unknown as ModerationCaseType),
    snapshot: toTargetType(filed.snapshot),
    current: current ? toTargetType(current) : null,
  };
}
