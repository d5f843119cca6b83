import type { AuditEntry, ModerationCase, ModerationTarget, User } from '@app/schema';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { type GatewayContext, requireRole, requireUser } from './context';
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

const MAX_PAGE = 100;

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
    const user = requireUser(context);
    const target = await context.targets.forReport(input.targetKind, input.targetId, user.id, context.meta);
    return context.identity.fileReport(user.id, { ...input }, target, context.meta);
  }

  @Mutation(() => TakedownReceiptType, {
    description: 'A takedown request; no account needed. Rate-limited per address. The receipt holds the reference and deadlines.',
  })
  async requestTakedown(@Arg('input', () => TakedownInputType) input: TakedownInputType, @Ctx() context: GatewayContext) {
    const targets = await context.targets.forTakedown(typeof input.content === 'string' ? input.content : '', context.meta);
    const fields = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));
    return context.identity.fileTakedown(fields, targets, context.clientIp, context.meta);
  }

  @Query(() => ModerationQueueType, { description: 'Moderators: the queue, soonest deadline first, each case with the item now.' })
  async moderationQueue(
    @Ctx() context: GatewayContext,
    @Arg('status', () => CaseStatusType, { defaultValue: CaseStatusType.OPEN }) status: CaseStatusType,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<ModerationQueueType> {
    requireRole(context, 'moderator');
    const page = await context.identity.listCases(status, Math.min(Math.max(first, 1), MAX_PAGE), after ?? null, context.meta);
    const current = await context.targets.describe(
      page.cases.map((filed) => ({ kind: filed.targetKind, id: filed.targetId })),
      context.meta,
    );
    const byId = new Map(current.map((target) => [`${target.kind}:${target.id}`, target]));
    return {
      nodes: page.cases.map((filed) => toCaseType(filed, byId.get(`${filed.targetKind}:${filed.targetId}`) ?? null)),
      endCursor: page.nextCursor,
      hasNextPage: page.nextCursor !== null,
      openCount: page.openCount,
    };
  }

  @Mutation(() => AuditEntryType, {
    description: 'Moderators: hide, remove, restore, change a rating, dismiss a case, suspend or unsuspend a member. A reason is required.',
  })
  async moderate(
    @Arg('input', () => ModerationActionInputType) input: ModerationActionInputType,
    @Ctx() context: GatewayContext,
  ): Promise<AuditEntryType> {
    const moderator = requireRole(context, 'moderator');
    const target = input.targetKind === 'member' ? null : await context.targets.describeOne(input.targetKind, input.targetId, context.meta);
    return toAuditType(await context.identity.takeAction(moderator.id, { ...input }, target, context.meta));
  }

  @Query(() => AuditLogType, { description: 'Moderators: the append-only audit log, newest first.' })
  async moderationAuditLog(
    @Ctx() context: GatewayContext,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<AuditLogType> {
    requireRole(context, 'moderator');
    const page = await context.identity.listAudit(Math.min(Math.max(first, 1), MAX_PAGE), after ?? null, context.meta);
    return { nodes: page.entries.map(toAuditType), endCursor: page.nextCursor, hasNextPage: page.nextCursor !== null };
  }

  @Mutation(() => UserType, { description: 'Admins: gives a member a role (member takes moderator or admin away).' })
  grantRole(
    @Arg('email', () => String) email: string,
    @Arg('role', () => RoleType) role: RoleType,
    @Arg('reason', () => String) reason: string,
    @Ctx() context: GatewayContext,
  ): Promise<User> {
    const admin = requireRole(context, 'admin');
    return context.identity.grantRole(email, role, admin.id, reason, context.meta);
  }

  @Query(() => [MemberNoticeType], { description: "Moderators' decisions on my content that I have not dismissed, newest first." })
  async myNotices(@Ctx() context: GatewayContext): Promise<MemberNoticeType[]> {
    return (await context.identity.listNotices(requireUser(context).id, context.meta)) as MemberNoticeType[];
  }

  @Mutation(() => Boolean)
  dismissNotice(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<boolean> {
    return context.identity.dismissNotice(requireUser(context).id, id, context.meta);
  }

  @Mutation(() => UserType, { description: 'How I see suggestive and explicit public content: show, blur or hide.' })
  updateRatingPreferences(
    @Arg('input', () => RatingPreferencesInput) input: RatingPreferencesInput,
    @Ctx() context: GatewayContext,
  ): Promise<User> {
    return context.identity.updatePreferences(requireUser(context).id, { ...input }, context.meta);
  }
}

function toCaseType(filed: ModerationCase, current: ModerationTarget | null): ModerationCaseType {
  return {
    ...(filed as unknown as ModerationCaseType),
    snapshot: toTargetType(filed.snapshot),
    current: current ? toTargetType(current) : null,
  };
}
