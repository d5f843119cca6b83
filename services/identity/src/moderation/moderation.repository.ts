import type { SqlSession } from '@app/kit';
import type {
  AuditAction,
  AuditEntry,
  CaseReason,
  CaseStatus,
  MemberNotice,
  ModerationCase,
  ModerationTarget,
  TakedownRequesterRole,
} from '@app/schema';

interface CaseRow {
  id: string;
  kind: ModerationCase['kind'];
  reason: CaseReason;
  details: string | null;
  target_kind: ModerationCase['targetKind'];
  target_id: string;
  target_owner_id: string;
  owner_suspended: boolean;
  snapshot: ModerationTarget;
  reporter_id: string | null;
  reporter_email: string | null;
  reporter_first_name: string | null;
  reporter_last_name: string | null;
  reference: string | null;
  requester_name: string | null;
  requester_email: string | null;
  signature: string | null;
  requester_role: TakedownRequesterRole | null;
  status: CaseStatus;
  created_at: Date;
  deadline_at: Date;
  resolve_by: Date | null;
  resolved_at: Date | null;
  resolution: string | null;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ') || null;

const toCase = (row: CaseRow): ModerationCase => ({
  id: row.id,
  kind: row.kind,
  reason: row.reason,
  details: row.details,
  targetKind: row.target_kind,
  targetId: row.target_id,
  targetOwnerId: row.target_owner_id,
  ownerSuspended: row.owner_suspended,
  snapshot: row.snapshot,
  reporterId: row.reporter_id,
  reporter:
    row.reporter_id && row.reporter_email
      ? { id: row.reporter_id, email: row.reporter_email, name: fullName(row.reporter_first_name, row.reporter_last_name) }
      : null,
  reference: row.reference,
  requester: row.requester_name
    ? { name: row.requester_name, email: row.requester_email!, signature: row.signature!, role: row.requester_role! }
    : null,
  status: row.status,
  createdAt: iso(row.created_at)!,
  deadlineAt: iso(row.deadline_at)!,
  resolveBy: iso(row.resolve_by),
  resolvedAt: iso(row.resolved_at),
  resolution: row.resolution,
});

interface AuditRow {
  seq: string;
  id: string;
  occurred_at: Date;
  actor_id: string | null;
  actor_label: string;
  action: AuditAction;
  target_kind: AuditEntry['targetKind'];
  target_id: string;
  case_id: string | null;
  reason: string;
  detail: string | null;
}

const toAuditEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  occurredAt: iso(row.occurred_at)!,
  actorId: row.actor_id,
  actorLabel: row.actor_label,
  action: row.action,
  targetKind: row.target_kind,
  targetId: row.target_id,
  caseId: row.case_id,
  reason: row.reason,
  detail: row.detail,
});

export interface NewCase {
  kind: ModerationCase['kind'];
  reason: CaseReason;
  details: string | null;
  target: ModerationTarget;
  reporterId: string | null;
  takedownId: string | null;
  createdAt: Date;
  deadlineAt: Date;
  resolveBy: Date | null;
}

export interface NewAuditEntry {
  at: Date;
  actorId: string | null;
  actorLabel: string;
  action: AuditAction;
  targetKind: AuditEntry['targetKind'];
  targetId: string;
  caseId: string | null;
  reason: string;
  detail: string | null;
}

/** A case with its takedown request, its reporter and whether the item's owner is suspended now. */
const CASES = `SELECT c."id", c."kind", c."reason", c."details", c."target_kind", c."target_id", c."target_owner_id",
    o."suspended_at" IS NOT NULL AS "owner_suspended", c."snapshot", c."reporter_id", r."email" AS "reporter_email",
    r."first_name" AS "reporter_first_name", r."last_name" AS "reporter_last_name", t."reference", t."requester_name",
    t."requester_email", t."signature", t."requester_role", c."status", c."created_at", c."deadline_at", c."resolve_by",
    c."resolved_at", c."resolution"
  FROM "identity"."moderation_cases" c
  LEFT JOIN "identity"."takedown_requests" t ON t."id" = c."takedown_id"
  LEFT JOIN "identity"."users" r ON r."id" = c."reporter_id"
  LEFT JOIN "identity"."users" o ON o."id" = c."target_owner_id"`;

/** The moderation queue, takedown requests, member notices and the append-only audit log. */
export class ModerationRepository {
  constructor(private readonly session: SqlSession) {}

  /** Inserts a case; a member's repeat report of an item already open for them returns the open case's id. */
  async insertCase(input: NewCase): Promise<{ id: string; created: boolean }> {
    const rows = await this.session.query<{ id: string }>(
      `INSERT INTO "identity"."moderation_cases" ("kind", "reason", "details", "target_kind", "target_id", "target_owner_id", "snapshot",
         "reporter_id", "takedown_id", "created_at", "deadline_at", "resolve_by")
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12)
       ON CONFLICT DO NOTHING RETURNING "id"`,
      [
        input.kind,
        input.reason,
        input.details,
        input.target.kind,
        input.target.id,
        input.target.ownerId,
        JSON.stringify(input.target),
        input.reporterId,
        input.takedownId,
        input.createdAt,
        input.deadlineAt,
        input.resolveBy,
      ],
    );
    if (rows[0]) return { id: rows[0].id, created: true };
    const open = await this.session.query<{ id: string }>(
      `SELECT "id" FROM "identity"."moderation_cases" WHERE "reporter_id" = $1 AND "target_id" = $2 AND "status" = 'open' AND "kind" = 'report'`,
      [input.reporterId, input.target.id],
    );
    return { id: open[0]!.id, created: false };
  }

  async insertTakedown(input: {
    reference: string;
    kind: string;
    name: string;
    email: string;
    signature: string;
    role: string;
    content: string;
    statement: string;
    work: string | null;
    createdAt: Date;
    removalDeadline: Date;
    resolutionDeadline: Date;
  }): Promise<string> {
    const rows = await this.session.query<{ id: string }>(
      `INSERT INTO "identity"."takedown_requests" ("reference", "kind", "requester_name", "requester_email", "signature", "requester_role",
         "content", "statement", "work", "created_at", "removal_deadline", "resolution_deadline")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING "id"`,
      [
        input.reference,
        input.kind,
        input.name,
        input.email,
        input.signature,
        input.role,
        input.content,
        input.statement,
        input.work,
        input.createdAt,
        input.removalDeadline,
        input.resolutionDeadline,
      ],
    );
    return rows[0]!.id;
  }

  async findCase(id: string): Promise<ModerationCase | null> {
    const rows = await this.session.query<CaseRow>(`${CASES} WHERE c."id" = $1`, [id]);
    return rows[0] ? toCase(rows[0]) : null;
  }

  /** Oldest deadline first; `after` is the last (deadline, id) of the previous page. */
  async listCases(status: CaseStatus, first: number, after: { deadlineAt: Date; id: string } | null): Promise<ModerationCase[]> {
    const order = status === 'open' ? 'ASC' : 'DESC';
    const comparison = status === 'open' ? '>' : '<';
    const rows = await this.session.query<CaseRow>(
      `${CASES}
       WHERE c."status" = $1 ${after ? `AND (c."deadline_at", c."id") ${comparison} ($3, $4)` : ''}
       ORDER BY c."deadline_at" ${order}, c."id" ${order} LIMIT $2`,
      after ? [status, first, after.deadlineAt, after.id] : [status, first],
    );
    return rows.map(toCase);
  }

  async countOpenCases(): Promise<number> {
    const rows = await this.session.query<{ count: string }>(
      `SELECT count(*) AS "count" FROM "identity"."moderation_cases" WHERE "status" = 'open'`,
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** Resolves every open case on the target (a decision answers all its reports); returns their ids. */
  async resolveCasesOn(targetId: string, resolution: string, by: string | null, at: Date): Promise<string[]> {
    const rows = await this.session.query<{ id: string }>(
      `UPDATE "identity"."moderation_cases" SET "status" = 'resolved', "resolved_at" = $3, "resolved_by" = $4, "resolution" = $2
       WHERE "target_id" = $1 AND "status" = 'open' RETURNING "id"`,
      [targetId, resolution, at, by],
    );
    return rows.map((row) => row.id);
  }

  async appendAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    const rows = await this.session.query<AuditRow>(
      `INSERT INTO "identity"."moderation_audit" ("occurred_at", "actor_id", "actor_label", "action", "target_kind", "target_id", "case_id", "reason", "detail")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [entry.at, entry.actorId, entry.actorLabel, entry.action, entry.targetKind, entry.targetId, entry.caseId, entry.reason, entry.detail],
    );
    return toAuditEntry(rows[0]!);
  }

  /** Newest first; `after` is the sequence number of the previous page's last entry. */
  async listAudit(first: number, afterSeq: string | null): Promise<Array<AuditEntry & { seq: string }>> {
    const rows = await this.session.query<AuditRow>(
      `SELECT * FROM "identity"."moderation_audit" ${afterSeq ? 'WHERE "seq" < $2' : ''} ORDER BY "seq" DESC LIMIT $1`,
      afterSeq ? [first, afterSeq] : [first],
    );
    return rows.map((row) => ({ ...toAuditEntry(row), seq: String(row.seq) }));
  }

  async insertNotice(userId: string, notice: Omit<MemberNotice, 'id' | 'createdAt'>, at: Date): Promise<void> {
    await this.session.execute(
      `INSERT INTO "identity"."member_notices" ("user_id", "kind", "target_kind", "target_id", "label", "reason", "rating", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [userId, notice.kind, notice.targetKind, notice.targetId, notice.label, notice.reason, notice.rating, at],
    );
  }

  async listNotices(userId: string): Promise<MemberNotice[]> {
    const rows = await this.session.query<{
      id: string;
      kind: MemberNotice['kind'];
      target_kind: MemberNotice['targetKind'];
      target_id: string;
      label: string;
      reason: string;
      rating: MemberNotice['rating'];
      created_at: Date;
    }>(
      `SELECT "id", "kind", "target_kind", "target_id", "label", "reason", "rating", "created_at" FROM "identity"."member_notices"
       WHERE "user_id" = $1 AND "dismissed_at" IS NULL ORDER BY "created_at" DESC LIMIT 50`,
      [userId],
    );
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      targetKind: row.target_kind,
      targetId: row.target_id,
      label: row.label,
      reason: row.reason,
      rating: row.rating,
      createdAt: iso(row.created_at)!,
    }));
  }

  async dismissNotice(userId: string, noticeId: string, at: Date): Promise<boolean> {
    return (
      (await this.session.execute(
        `UPDATE "identity"."member_notices" SET "dismissed_at" = $3 WHERE "id" = $2 AND "user_id" = $1 AND "dismissed_at" IS NULL`,
        [userId, noticeId, at],
      )) > 0
    );
  }
}
