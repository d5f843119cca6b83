import {
  AppError,
  type CaseStatus,
  IMAGE_VARIANTS,
  type ImageVariant,
  ModerationActionInput,
  ReportInput,
  type Role,
  TakedownInput,
} from '@app/schema';
import { z } from 'zod';
import { type Caller, type Services, member, role } from '../operations/caller';
import { foundId, pageSize, parseInput } from '../operations/input';

const CONTENT_NOT_FOUND = 'That content no longer exists.';

const ModerationPage = z.object({ first: pageSize('first'), after: z.string().nullish() });

/** A content id a client names follows the id rule before its form is checked: one that cannot exist is not found. */
function checkContentIds(input: unknown): void {
  const { targetId, caseId } = (input && typeof input === 'object' ? input : {}) as { targetId?: unknown; caseId?: unknown };
  if (typeof targetId === 'string') foundId(targetId, CONTENT_NOT_FOUND);
  if (typeof caseId === 'string') foundId(caseId, 'Case not found');
}

/** A member's report of a public image or character, or of an AI reply in their own conversation. */
export async function reportContent(services: Services, caller: Caller, input: unknown) {
  const reporter = member(caller);
  checkContentIds(input);
  const report = parseInput(ReportInput, input);
  const target = await services.targets.forReport(report.targetKind, report.targetId, reporter.id, caller.meta);
  return services.identity.fileReport(reporter.id, report, target, caller.meta);
}

/** Anyone may ask for a takedown (rate-limited per address by identity). */
export async function requestTakedown(services: Services, caller: Caller, input: Record<string, unknown>) {
  const takedown = parseInput(TakedownInput, input);
  const found = await services.targets.forTakedown(takedown.content, caller.meta);
  return services.identity.fileTakedown(takedown, found, caller.clientIp, caller.meta);
}

/** Moderators: the queue, soonest deadline first, each case with its item as it is now. */
export async function moderationQueue(
  services: Services,
  caller: Caller,
  status: CaseStatus,
  window: { first: number; after?: string | null },
) {
  role(caller, 'moderator');
  const { first, after } = parseInput(ModerationPage, { ...window });
  const page = await services.identity.listCases(status, first, after ?? null, caller.meta);
  const current = await services.targets.describe(
    page.cases.map((filed) => ({ kind: filed.targetKind, id: filed.targetId })),
    caller.meta,
  );
  const byId = new Map(current.map((target) => [`${target.kind}:${target.id}`, target]));
  const cases = page.cases.map((filed) => ({ filed, current: byId.get(`${filed.targetKind}:${filed.targetId}`) ?? null }));
  return { cases, nextCursor: page.nextCursor, openCount: page.openCount };
}

/** Moderators act on content or members (a reason is required); identity writes the audit log. */
export async function moderate(
  services: Services,
  caller: Caller,
  input: { targetKind: string; targetId: string } & Record<string, unknown>,
) {
  const moderator = role(caller, 'moderator');
  checkContentIds(input);
  const action = parseInput(ModerationActionInput, input);
  const target =
    action.targetKind === 'member' ? null : await services.targets.describeOne(action.targetKind, action.targetId, caller.meta);
  return services.identity.takeAction(moderator.id, action, target, caller.meta);
}

export async function moderationAuditLog(services: Services, caller: Caller, window: { first: number; after?: string | null }) {
  role(caller, 'moderator');
  const { first, after } = parseInput(ModerationPage, { ...window });
  return services.identity.listAudit(first, after ?? null, caller.meta);
}

/** Admins give a member a role; `member` takes moderator or admin away. */
export async function grantRole(services: Services, caller: Caller, grant: { email: string; role: Role; reason: string }) {
  const admin = role(caller, 'admin');
  return services.identity.grantRole(grant.email, grant.role, admin.id, grant.reason, caller.meta);
}

export const listNotices = async (services: Services, caller: Caller) => services.identity.listNotices(member(caller).id, caller.meta);

export const dismissNotice = async (services: Services, caller: Caller, id: string) =>
  services.identity.dismissNotice(member(caller).id, foundId(id, 'Notice not found'), caller.meta);

/** Moderators see an image's file in any state; an unknown size falls back to the 512 px one. */
export async function moderatedImageFile(services: Services, caller: Caller, id: string, requested: unknown) {
  role(caller, 'moderator');
  const imageId = foundId(id, 'Image not found');
  const variant = IMAGE_VARIANTS.includes(requested as ImageVariant) ? (requested as ImageVariant) : 'w512';
  return services.media.locateModeratedImageFile(imageId, variant, caller.meta);
}

export async function moderatedCharacterAvatar(services: Services, caller: Caller, id: string) {
  role(caller, 'moderator');
  const avatar = await services.chat.moderatedCharacterAvatar(foundId(id, 'Character not found'), caller.meta);
  if (!avatar) throw new AppError('NOT_FOUND', 'This character has no avatar');
  return avatar;
}
