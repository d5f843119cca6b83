import { createHash } from 'node:crypto';
import { logger } from '@app/kit';
import type { NextFunction, Request, Response } from 'express';
import { Pool } from 'pg';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

export interface GraphQLRateLimitSettings {
  /** Requests one client address may make per window; 0: no limit. */
  perAddress: number;
  /** Requests one access token, or one member's browser sessions together, may make per window; 0: no limit. */
  perCredential: number;
  windowSeconds: number;
}

/** The PostgreSQL schema the gateway keeps its counters in (it holds no other data). */
const SCHEMA = 'gateway';
const TABLE = 'graphql_rate_limits';

interface LimiterOptions {
  keyPrefix: string;
  points: number;
  duration: number;
}

/** How one bucket stands after this request: what the RateLimit-* headers report. */
interface BucketState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * Rate limits on `/graphql`, per client address and per credential, with `RateLimit-*` headers and
 * `429` + `Retry-After` past them (rate-limiter-flexible). Counted in PostgreSQL when the gateway has a
 * database, so every gateway shares the counts; in memory otherwise (the embedded product is one process).
 * If PostgreSQL fails, each gateway falls back to counting in its own memory rather than refusing requests.
 */
export class GraphQLRateLimits {
  private constructor(
    private readonly settings: GraphQLRateLimitSettings,
    private readonly byAddress: RateLimiterAbstract | null,
    private readonly byCredential: RateLimiterAbstract | null,
    private readonly pool: Pool | null,
  ) {}

  static async open(settings: GraphQLRateLimitSettings, databaseUrl: string | null): Promise<GraphQLRateLimits> {
    const pool = databaseUrl && (settings.perAddress > 0 || settings.perCredential > 0) ? await openPool(databaseUrl) : null;
    const limiter = async (keyPrefix: string, points: number): Promise<RateLimiterAbstract | null> => {
      if (points <= 0) return null;
      const options: LimiterOptions = { keyPrefix, points, duration: settings.windowSeconds };
      if (!pool) return new RateLimiterMemory(options);
      const postgresOptions = { ...options, insuranceLimiter: new RateLimiterMemory(options) };
      // Gateways starting together may race to create the table; the loser finds it there on a second try.
      return createPostgresLimiter(postgresOptions, pool).catch(() => createPostgresLimiter(postgresOptions, pool));
    };
    try {
      return new GraphQLRateLimits(
        settings,
        await limiter('address', settings.perAddress),
        await limiter('credential', settings.perCredential),
        pool,
      );
    } catch (error) {
      await pool?.end();
      throw error;
    }
  }

  /** Counts the request against the address, then against its credential; answers 429 past either. */
  middleware() {
    return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      const states: BucketState[] = [];
      if (this.byAddress) {
        const outcome = await this.take(this.byAddress, req.state.clientIp);
        if (outcome.refused) return this.refuse(res, outcome.state, 'Too many requests from this address; please slow down.');
        states.push(outcome.state);
      }
      const credential = this.byCredential && (await credentialKey(req));
      if (this.byCredential && credential) {
        const outcome = await this.take(this.byCredential, credential);
        if (outcome.refused) return this.refuse(res, outcome.state, 'Too many requests with this credential; please slow down.');
        states.push(outcome.state);
      }
      const tightest = states.sort((a, b) => a.remaining / a.limit - b.remaining / b.limit)[0];
      if (tightest) this.setHeaders(res, tightest);
      next();
    };
  }

  async close(): Promise<void> {
    await this.pool?.end();
  }

  private async take(limiter: RateLimiterAbstract, key: string): Promise<{ refused: boolean; state: BucketState }> {
    try {
      return { refused: false, state: stateOf(limiter, await limiter.consume(key)) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { refused: true, state: stateOf(limiter, rejection) };
      throw rejection;
    }
  }

  private refuse(res: Response, state: BucketState, message: string): void {
    const retryAfterSeconds = Math.max(1, state.resetSeconds);
    this.setHeaders(res, state);
    res.setHeader('Retry-After', String(retryAfterSeconds));
    // A GraphQL-shaped answer, so clients read it like any other error of the API.
    res.status(429).json({ errors: [{ message, extensions: { code: 'RATE_LIMITED', retryAfterSeconds } }] });
  }

  // The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers), for the bucket closest to its limit.
  private setHeaders(res: Response, state: BucketState): void {
    res.setHeader('RateLimit-Policy', `${state.limit};w=${this.settings.windowSeconds}`);
    res.setHeader('RateLimit-Limit', String(state.limit));
    res.setHeader('RateLimit-Remaining', String(state.remaining));
    res.setHeader('RateLimit-Reset', String(state.resetSeconds));
  }
}

const stateOf = (limiter: RateLimiterAbstract, result: RateLimiterRes): BucketState => ({
  limit: limiter.points,
  remaining: Math.max(0, result.remainingPoints),
  resetSeconds: Math.max(0, Math.ceil(result.msBeforeNext / 1000)),
});

/**
 * An access token counts on its own; a member's browser sessions count together. Null for a visitor, and
 * when the session cannot be read now (the request then fails on its own, with the reason).
 */
async function credentialKey(req: Request): Promise<string | null> {
  if (!req.state.sessionToken) return null;
  const access = await req.state.access().catch(() => null);
  if (!access) return null;
  if (!access.scopes) return `member:${access.user.id}`;
  return `token:${createHash('sha256').update(req.state.sessionToken).digest('hex').slice(0, 32)}`;
}

async function openPool(databaseUrl: string): Promise<Pool> {
  const pool = new Pool({ connectionString: databaseUrl, max: 4, connectionTimeoutMillis: 2_000, application_name: SCHEMA });
  // An idle client that loses its server must not take the process down; the next query reconnects.
  pool.on('error', (error) => logger.warn({ err: error }, 'rate-limit database connection lost'));
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${SCHEMA}"`);
  return pool;
}

/** rate-limiter-flexible creates its table (if missing) before it counts; waiting for that keeps start-up errors at start. */
function createPostgresLimiter(
  options: LimiterOptions & { insuranceLimiter: RateLimiterMemory },
  pool: Pool,
): Promise<RateLimiterPostgres> {
  return new Promise((resolve, reject) => {
    const limiter: RateLimiterPostgres = new RateLimiterPostgres(
      { ...options, storeClient: pool, storeType: 'pool', schemaName: SCHEMA, tableName: TABLE },
      (error?: Error) => (error ? reject(error) : resolve(limiter)),
    );
  });
}
