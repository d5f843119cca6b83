import { randomBytes } from 'node:crypto';
import {
  AppError,
  type AuditEntry,
  type CaseStatus,
  type MemberNotice,
  ModerationActionInput,
  type ModerationCase,
  type ModerationTarget,
  REPORT_DEADLINE_HOURS,
  ReportInput,
  type Role,
  TAKEDOWN_REMOVAL_HOURS,
  TAKEDOWN_RESOLUTION_BUSINESS_DAYS,
  TakedownInput,
  type TakedownReceipt,
  type User,
  hasRole,
  identityEvents,
  validationError,
} from '@app/schema';
import { type UserRow, toUser } from '../accounts/accounts.repository';
import { Throttle, type ThrottleRule } from '../accounts/throttle';
import type { IdentityStore } from '../identity.store';
import { addBusinessDays, addHours } from './deadlines';

const HOUR_MS = 60 * 60 * 1000;
/** A member reporting more than this an hour is more likely abusing the queue than finding abuse. */
const REPORTS_PER_MEMBER: ThrottleRule = { limit: 30, windowMs: HOUR_MS };
/** Takedowns need no account, so the address is what limits them; a real requester rarely sends more than a few. */
const TAKEDOWNS_PER_ADDRESS: ThrottleRule = { limit: 5, windowMs: HOUR_MS };
const CLI_LABEL = 'command line';

const NOTICE_FOR: Partial<Record<ModerationActionInput['action'], MemberNotice['kind']>> = {
  hide: 'content_hidden',
  remove: 'content_removed',
  restore: 'content_restored',
  change_rating: 'rating_changed',
};

interface PageCursor {
  deadlineAt: Date;
  id: string;
}

const encodeCursor = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
const decodeCursor = (cursor: string | null | undefined): string | null => {
  if (!cursor) return null;
  try {
    return Buffer.from(cursor, 'base64url').toString('utf8');
  } catch {
    return null;
  }
};

/** Reports and takedowns into one queue, moderators' decisions into the audit log, and what owners are told. */
export class ModerationService {
  private readonly throttle: Throttle;

  constructor(
    private readonly store: IdentityStore,
    /** Tells every gateway that sessions ended (a suspension's); the command line, which ends none, passes a no-op. */
    private readonly announceSessionsEnded: (tokenHashes: string[]) => Promise<void>,
    private readonly clock: () => Date,
  ) {
    this.throttle = new Throttle(store, clock);
  }

  async fileReport(reporterId: string, raw: unknown, target: ModerationTarget): Promise<{ caseId: string }> {
    const parsed = ReportInput.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const input = parsed.data;
    if (input.targetKind !== target.kind || input.targetId !== target.id) {
      throw new AppError('VALIDATION_FAILED', 'The reported item does not match its description.');
    }
    // A reply belongs to the conversation of the member who reports it; anything else of one's own cannot be reported.
    if (target.kind !== 'reply' && target.ownerId === reporterId)
      throw new AppError('VALIDATION_FAILED', "You can't report your own content.");
    const key = `report-member:${reporterId}`;
    await this.throttle.assertAllowed(key, REPORTS_PER_MEMBER, 'You have sent many reports in the last hour. Please try again later.');
    const now = this.clock();
    const caseId = await this.store.transaction(async ({ moderation }, tx) => {
      const filed = await moderation.insertCase({
        kind: 'report',
        reason: input.reason,
        details: input.details,
        target,
        reporterId,
        takedownId: null,
        createdAt: now,
        deadlineAt: addHours(now, REPORT_DEADLINE_HOURS[input.reason]),
        resolveBy: null,
      });
      if (filed.created) {
        await tx.emit(
          identityEvents.reportFiled,
          { caseId: filed.id, targetKind: target.kind, targetId: target.id, ownerId: target.ownerId, reason: input.reason, reporterId },
          reporterId,
        );
      }
      return filed.id;
    });
    await this.throttle.hit(key, REPORTS_PER_MEMBER);
    return { caseId };
  }

  /** One request, one reference; a case per item it names, each due for removal in 48 hours. */
  async fileTakedown(raw: unknown, targets: ModerationTarget[], clientIp: string): Promise<TakedownReceipt> {
    const parsed = TakedownInput.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const input = parsed.data;
    if (targets.length === 0) {
      const message = 'We could not find that content. Please paste the links to the images or characters on this site.';
      throw new AppError('VALIDATION_FAILED', message, { fieldErrors: { content: message } });
    }
    const key = `takedown-ip:${clientIp}`;
    await this.throttle.assertAllowed(key, TAKEDOWNS_PER_ADDRESS, 'Too many requests from your network. Please try again later.');
    const now = this.clock();
    const removalDeadline = addHours(now, TAKEDOWN_REMOVAL_HOURS);
    const resolutionDeadline = addBusinessDays(now, TAKEDOWN_RESOLUTION_BUSINESS_DAYS);
    const reference = `TD-${randomBytes(5).toString('hex').toUpperCase()}`;
    await this.store.transaction(async ({ moderation }, tx) => {
      const takedownId = await moderation.insertTakedown({
        reference,
        kind: input.kind,
        name: input.name,
        email: input.email,
        signature: input.signature,
        role: input.kind === 'intimate_image' ? input.requester : 'rights_holder',
        content: input.content,
        statement: input.statement,
        work: input.kind === 'rights' ? input.work : null,
        createdAt: now,
        removalDeadline,
        resolutionDeadline,
      });
      const caseIds: string[] = [];
      for (const target of targets) {
        const filed = await moderation.insertCase({
          kind: 'takedown',
          reason: input.kind,
          details: input.statement,
          target,
          reporterId: null,
          takedownId,
          createdAt: now,
          deadlineAt: removalDeadline,
          resolveBy: resolutionDeadline,
        });
        caseIds.push(filed.id);
      }
      await tx.emit(
        identityEvents.takedownFiled,
        {
          reference,
          kind: input.kind,
          caseIds,
          targets: targets.map((target) => ({ kind: target.kind, id: target.id })),
          removalDeadline: removalDeadline.toISOString(),
        },
        null,
      );
    });
    await this.throttle.hit(key, TAKEDOWNS_PER_ADDRESS);
    return {
      reference,
      removalDeadline: removalDeadline.toISOString(),
      resolutionDeadline: resolutionDeadline.toISOString(),
      items: targets.length,
    };
  }

  async listCases(
    status: CaseStatus,
    first: number,
    after: string | null | undefined,
  ): Promise<{ cases: ModerationCase[]; nextCursor: string | null; openCount: number }> {
    const cursor = this.parseCaseCursor(after);
    return this.store.run(async ({ moderation }) => {
      const cases = await moderation.listCases(status, first + 1, cursor);
      const page = cases.slice(0, first);
      const last = page.at(-1);
      const nextCursor = cases.length > first && last ? encodeCursor(`${last.deadlineAt}|${last.id}`) : null;
      return { cases: page, nextCursor, openCount: await moderation.countOpenCases() };
    });
  }

  private parseCaseCursor(after: string | null | undefined): PageCursor | null {
    const decoded = decodeCursor(after);
    if (!after) return null;
    const [deadline, id] = decoded?.split('|') ?? [];
    const deadlineAt = new Date(deadline ?? '');
    if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(deadlineAt.getTime())) {
      throw new AppError('VALIDATION_FAILED', 'after is not a cursor from this list');
    }
    return { deadlineAt, id };
  }

  /**
   * A moderator's decision: recorded in the audit log, announced (media and chat apply it to content),
   * every open case on the target resolved, and the owner told, all in one transaction.
   */
  async takeAction(moderatorId: string, raw: unknown, target: ModerationTarget | null): Promise<AuditEntry> {
    const parsed = ModerationActionInput.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const input = parsed.data;
    const now = this.clock();
    const moderator = await this.requireRole(moderatorId, 'moderator');
    const isMemberAction = input.targetKind === 'member';
    if (!isMemberAction && (!target || target.kind !== input.targetKind || target.id !== input.targetId)) {
      throw new AppError('NOT_FOUND', 'That content no longer exists.');
    }
    const endedSessions = await this.store.transaction(async ({ moderation, accounts, accessTokens }, tx) => {
      let ended: string[] = [];
      let ownerId = target?.ownerId ?? null;
      if (isMemberAction) {
        const member = await accounts.findUserById(input.targetId);
        if (!member) throw new AppError('NOT_FOUND', 'Member not found');
        if (member.id === moderator.id) throw new AppError('FORBIDDEN', "You can't suspend yourself.");
        if (member.role !== 'member' && moderator.role !== 'admin') {
          throw new AppError('FORBIDDEN', 'Only an admin can suspend a moderator or an admin.');
        }
        ownerId = member.id;
        await accounts.setSuspended(member.id, input.action === 'suspend' ? now : null);
        // Sessions and access tokens alike: a suspended member's scripts stop with them, and stay stopped after.
        if (input.action === 'suspend') {
          ended = [...(await accounts.deleteSessionsOf(member.id)), ...(await accessTokens.revokeAllOf(member.id, now))];
        }
      }
      const filed = input.caseId ? await moderation.findCase(input.caseId) : null;
      if (input.caseId && !filed) throw new AppError('NOT_FOUND', 'Case not found');
      if (filed && filed.targetId !== input.targetId && !(isMemberAction && filed.targetOwnerId === input.targetId)) {
        throw new AppError('VALIDATION_FAILED', 'The action does not concern this case.');
      }
      const entry = await moderation.appendAudit({
        at: now,
        actorId: moderator.id,
        actorLabel: moderator.email,
        action: input.action,
        targetKind: input.targetKind,
        targetId: input.targetId,
        caseId: input.caseId ?? null,
        reason: input.reason,
        detail: input.action === 'change_rating' ? (input.rating ?? null) : null,
      });
      if (filed) {
        await moderation.resolveCasesOn(filed.targetId, input.action === 'dismiss' ? 'dismissed' : input.action, moderator.id, now);
      } else if (!isMemberAction && input.action !== 'restore' && input.action !== 'change_rating') {
        await moderation.resolveCasesOn(input.targetId, input.action, moderator.id, now);
      }
      if (isMemberAction) {
        const event = input.action === 'suspend' ? identityEvents.memberSuspended : identityEvents.memberUnsuspended;
        await tx.emit(event, { userId: input.targetId, auditId: entry.id, moderatorId: moderator.id }, moderator.id);
      } else if (input.action !== 'dismiss') {
        await tx.emit(
          identityEvents.moderationActioned,
          {
            auditId: entry.id,
            action: input.action,
            targetKind: input.targetKind,
            targetId: input.targetId,
            ownerId,
            rating: input.action === 'change_rating' ? (input.rating ?? null) : null,
            caseId: input.caseId ?? null,
            moderatorId: moderator.id,
          },
          moderator.id,
        );
        const kind = NOTICE_FOR[input.action];
        if (kind && target && ownerId && target.kind !== 'reply') {
          await moderation.insertNotice(
            ownerId,
            {
              kind,
              targetKind: target.kind,
              targetId: target.id,
              label: (target.title ?? target.text).slice(0, 120),
              reason: input.reason,
              rating: input.action === 'change_rating' ? (input.rating ?? null) : null,
            },
            now,
          );
        }
      }
      return { entry, ended };
    });
    await this.announceSessionsEnded(endedSessions.ended);
    return endedSessions.entry;
  }

  async listAudit(first: number, after: string | null | undefined): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    const afterSeq = decodeCursor(after);
    if (after && !/^\d+$/.test(afterSeq ?? '')) throw new AppError('VALIDATION_FAILED', 'after is not a cursor from this list');
    const rows = await this.store.run(({ moderation }) => moderation.listAudit(first + 1, afterSeq));
    const page = rows.slice(0, first);
    const nextCursor = rows.length > first && page.length ? encodeCursor(page.at(-1)!.seq) : null;
    return { entries: page.map(({ seq: _seq, ...entry }) => entry), nextCursor };
  }

  listNotices(userId: string): Promise<MemberNotice[]> {
    return this.store.run(({ moderation }) => moderation.listNotices(userId));
  }

  dismissNotice(userId: string, noticeId: string): Promise<boolean> {
    return this.store.run(({ moderation }) => moderation.dismissNotice(userId, noticeId, this.clock()));
  }

  /** An admin (or, with a null actor, the admin command line) gives a member a role; recorded in the audit log. */
  async grantRole(email: string, role: Role, actorId: string | null, reason: string): Promise<User> {
    const actor = actorId ? await this.requireRole(actorId, 'admin') : null;
    const now = this.clock();
    return this.store.transaction(async ({ accounts, moderation }, tx) => {
      const member = await accounts.findUserByEmail(email);
      if (!member) throw new AppError('NOT_FOUND', 'No member has this e-mail address.');
      await accounts.setRole(member.id, role);
      const entry = await moderation.appendAudit({
        at: now,
        actorId: actor?.id ?? null,
        actorLabel: actor?.email ?? CLI_LABEL,
        action: 'grant_role',
        targetKind: 'member',
        targetId: member.id,
        caseId: null,
        reason,
        detail: role,
      });
      await tx.emit(
        identityEvents.roleGranted,
        { userId: member.id, role, auditId: entry.id, grantedBy: actor?.id ?? null },
        actor?.id ?? null,
      );
      return toUser({ ...member, role });
    });
  }

  private async requireRole(userId: string, role: Role): Promise<UserRow> {
    const row = await this.store.run(({ accounts }) => accounts.findUserById(userId));
    if (!row || row.suspended_at || !hasRole(row.role, role)) throw new AppError('FORBIDDEN', `This needs the ${role} role.`);
    return row;
  }
}
