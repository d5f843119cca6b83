import type { SqlSession } from '@app/kit';
import type { AdvancedImageSettings, GenerationStatus, ImageSettings, PolicyCategory } from '@app/schema';

export interface JobRow {
  id: string;
  user_id: string;
  status: GenerationStatus;
  progress: number | null;
  prompt: string;
  size: ImageSettings['size'];
  quality: ImageSettings['quality'];
  style: ImageSettings['style'];
  /** The advanced settings asked for; null when none were. */
  advanced: AdvancedImageSettings | null;
  provider: string;
  model: string;
  is_demo: boolean;
  debit_key: string;
  attempts: number;
  lease_owner: string | null;
  cancel_requested: boolean;
  image_id: string | null;
  error_code: string | null;
  error_message: string | null;
  policy_category: PolicyCategory | null;
  refund_due: boolean;
  created_at: Date;
  updated_at: Date;
}

export type NewJob = Pick<
  JobRow,
  'id' | 'user_id' | 'prompt' | 'size' | 'quality' | 'style' | 'advanced' | 'provider' | 'model' | 'is_demo' | 'debit_key'
>;

const T = `"media"."generation_jobs"`;
const ACTIVE = `('queued', 'running', 'storing')`;

/** Job rows and their state changes; each change is one conditional statement, so two instances never both win. */
export class JobsRepository {
  constructor(private readonly session: SqlSession) {}

  async insert(job: NewJob): Promise<JobRow> {
    const rows = await this.session.query<JobRow>(
      `INSERT INTO ${T} ("id", "user_id", "status", "prompt", "size", "quality", "style", "advanced", "provider", "model", "is_demo", "debit_key")
       VALUES ($1, $2, 'queued', $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11) RETURNING *`,
      [
        job.id,
        job.user_id,
        job.prompt,
        job.size,
        job.quality,
        job.style,
        job.advanced && JSON.stringify(job.advanced),
        job.provider,
        job.model,
        job.is_demo,
        job.debit_key,
      ],
    );
    return rows[0]!;
  }

  async find(jobId: string): Promise<JobRow | null> {
    const rows = await this.session.query<JobRow>(`SELECT * FROM ${T} WHERE "id" = $1`, [jobId]);
    return rows[0] ?? null;
  }

  async listActive(userId: string): Promise<JobRow[]> {
    return this.session.query<JobRow>(`SELECT * FROM ${T} WHERE "user_id" = $1 AND "status" IN ${ACTIVE} ORDER BY "created_at"`, [userId]);
  }

  /** Jobs the member started in the last minute, and how many are still unfinished. */
  async recentLoad(userId: string): Promise<{ lastMinute: number; active: number }> {
    const [row] = await this.session.query<{ last_minute: string; active: string }>(
      `SELECT count(*) FILTER (WHERE "created_at" > now() - interval '1 minute') AS "last_minute",
              count(*) FILTER (WHERE "status" IN ${ACTIVE}) AS "active"
       FROM ${T} WHERE "user_id" = $1 AND ("created_at" > now() - interval '1 minute' OR "status" IN ${ACTIVE})`,
      [userId],
    );
    return { lastMinute: Number(row?.last_minute ?? 0), active: Number(row?.active ?? 0) };
  }

  /** Jobs waiting in the queue and jobs being drawn, across every instance (each count reads a partial index). */
  async depth(): Promise<{ waiting: number; running: number }> {
    const [row] = await this.session.query<{ waiting: string; running: string }>(
      `SELECT (SELECT count(*) FROM ${T} WHERE "status" = 'queued') AS "waiting",
              (SELECT count(*) FROM ${T} WHERE "status" IN ('running', 'storing')) AS "running"`,
      [],
    );
    return { waiting: Number(row?.waiting ?? 0), running: Number(row?.running ?? 0) };
  }

  /** Leases up to `limit` queued jobs to this instance, oldest first. */
  async claim(owner: string, limit: number, leaseMs: number): Promise<JobRow[]> {
    return this.session.query<JobRow>(
      `UPDATE ${T} SET "status" = 'running', "attempts" = "attempts" + 1, "lease_owner" = $1,
         "lease_expires_at" = now() + $2 * interval '1 millisecond', "progress" = NULL, "updated_at" = now()
       WHERE "id" IN (SELECT "id" FROM ${T} WHERE "status" = 'queued' AND "available_at" <= now()
                      ORDER BY "available_at", "created_at" LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [owner, leaseMs, limit],
    );
  }

  /** Extends this instance's lease and saves progress; null when the lease was lost (swept or finished elsewhere). */
  async renew(jobId: string, owner: string, leaseMs: number, progress: number | null): Promise<{ cancel_requested: boolean } | null> {
    const rows = await this.session.query<{ cancel_requested: boolean }>(
      `UPDATE ${T} SET "lease_expires_at" = now() + $3 * interval '1 millisecond', "progress" = $4, "updated_at" = now()
       WHERE "id" = $1 AND "lease_owner" = $2 AND "status" IN ('running', 'storing') RETURNING "cancel_requested"`,
      [jobId, owner, leaseMs, progress],
    );
    return rows[0] ?? null;
  }

  async markStoring(jobId: string, owner: string): Promise<JobRow | null> {
    return this.single(
      `UPDATE ${T} SET "status" = 'storing', "progress" = 1, "updated_at" = now()
       WHERE "id" = $1 AND "lease_owner" = $2 AND "status" = 'running' AND NOT "cancel_requested" RETURNING *`,
      [jobId, owner],
    );
  }

  async markDone(jobId: string, owner: string, imageId: string): Promise<JobRow | null> {
    return this.single(
      `UPDATE ${T} SET "status" = 'done', "image_id" = $3, "progress" = 1, "lease_owner" = NULL, "lease_expires_at" = NULL,
         "updated_at" = now(), "finished_at" = now()
       WHERE "id" = $1 AND "lease_owner" = $2 AND "status" = 'storing' AND NOT "cancel_requested" RETURNING *`,
      [jobId, owner, imageId],
    );
  }

  /** Puts a leased job back in the queue (retry after `delayMs`, or hand-over at shutdown without using an attempt). */
  async requeue(jobId: string, owner: string, delayMs: number, keepAttempt: boolean): Promise<JobRow | null> {
    return this.single(
      `UPDATE ${T} SET "status" = 'queued', "lease_owner" = NULL, "lease_expires_at" = NULL, "progress" = NULL,
         "available_at" = now() + $3 * interval '1 millisecond', "attempts" = "attempts" - $4, "updated_at" = now()
       WHERE "id" = $1 AND "lease_owner" = $2 AND "status" IN ('running', 'storing') RETURNING *`,
      [jobId, owner, delayMs, keepAttempt ? 1 : 0],
    );
  }

  /** Ends a job as failed or cancelled with its refund owed; `owner` null ends a queued job (member's cancel). */
  async finishUnsuccessful(
    jobId: string,
    owner: string | null,
    status: 'failed' | 'cancelled',
    errorCode: string | null,
    errorMessage: string | null,
    policyCategory: PolicyCategory | null = null,
  ): Promise<JobRow | null> {
    const claim = owner === null ? `"status" = 'queued'` : `"lease_owner" = $6 AND "status" IN ('running', 'storing')`;
    const values = [jobId, status, errorCode, errorMessage, policyCategory];
    return this.single(
      `UPDATE ${T} SET "status" = $2, "error_code" = $3, "error_message" = $4, "policy_category" = $5, "refund_due" = true,
         "lease_owner" = NULL, "lease_expires_at" = NULL, "updated_at" = now(), "finished_at" = now()
       WHERE "id" = $1 AND ${claim} RETURNING *`,
      owner === null ? values : [...values, owner],
    );
  }

  async requestCancel(jobId: string, userId: string): Promise<JobRow | null> {
    return this.single(
      `UPDATE ${T} SET "cancel_requested" = true, "updated_at" = now()
       WHERE "id" = $1 AND "user_id" = $2 AND "status" IN ('running', 'storing') RETURNING *`,
      [jobId, userId],
    );
  }

  /**
   * Jobs whose instance stopped renewing: back to the queue while attempts remain, otherwise failed (or
   * cancelled, if the member asked) with the refund owed. Returns the rows changed.
   */
  async sweepExpired(maxAttempts: number): Promise<JobRow[]> {
    return this.session.query<JobRow>(
      `UPDATE ${T} SET
         "status" = CASE WHEN "cancel_requested" THEN 'cancelled' WHEN "attempts" < $1 THEN 'queued' ELSE 'failed' END,
         "error_code" = CASE WHEN NOT "cancel_requested" AND "attempts" >= $1 THEN 'TIMEOUT' ELSE "error_code" END,
         "error_message" = CASE WHEN NOT "cancel_requested" AND "attempts" >= $1 THEN 'The generation stopped unexpectedly' ELSE "error_message" END,
         "refund_due" = "cancel_requested" OR "attempts" >= $1,
         "finished_at" = CASE WHEN "cancel_requested" OR "attempts" >= $1 THEN now() ELSE NULL END,
         "lease_owner" = NULL, "lease_expires_at" = NULL, "progress" = NULL, "available_at" = now(), "updated_at" = now()
       WHERE "id" IN (SELECT "id" FROM ${T} WHERE "status" IN ('running', 'storing') AND "lease_expires_at" < now()
                      LIMIT 100 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [maxAttempts],
    );
  }

  async refundsDue(limit: number): Promise<JobRow[]> {
    return this.session.query<JobRow>(`SELECT * FROM ${T} WHERE "refund_due" ORDER BY "updated_at" LIMIT $1`, [limit]);
  }

  async clearRefundDue(jobId: string): Promise<void> {
    await this.session.execute(`UPDATE ${T} SET "refund_due" = false WHERE "id" = $1`, [jobId]);
  }

  private async single(sql: string, params: unknown[]): Promise<JobRow | null> {
    return (await this.session.query<JobRow>(sql, params))[0] ?? null;
  }
}
