import v8 from 'node:v8';
import { logger } from '@app/kit';
import type { NextFunction, Request, Response } from 'express';
import { hasBody } from './connection-limits';

export interface PressureLimits {
  /** Requests being worked on at once, from arrival to the end of the response. */
  maxInFlight: number;
  /** Event-loop stall that, seen in two sample windows in a row, sheds load; 0 turns the check off. */
  maxEventLoopDelayMs: number;
  /** V8 heap in use; 0 turns the check off. */
  maxHeapUsedBytes: number;
  /** Resident set size of the whole process; 0 turns the check off. */
  maxRssBytes: number;
  /** Requests a second up to which an address is still served while the loop is stalled (a page loading, a member clicking). */
  quietAddressRequestsPerSecond: number;
  /** How often the event loop and memory are sampled. */
  sampleIntervalMs: number;
}

export type OverloadReason = 'in-flight' | 'event-loop-delay' | 'heap' | 'rss';

/** The default heap ceiling: 90% of what V8 will allow before it aborts the process. */
export const defaultMaxHeapUsedBytes = () => Math.floor(v8.getHeapStatistics().heap_size_limit * 0.9);

/** How often the loop's lateness is measured: a 10 ms timer that fires late shows how long the loop stalled. */
const LAG_PROBE_MS = 10;
/** A body still arriving after this long, while the gateway is full, is the first to make room. */
const STALLED_BODY_MS = 1000;
const QUIET_WINDOW_MS = 1000;

/**
 * Decides whether the gateway takes new work, as @fastify/under-pressure does for Fastify: by requests
 * in flight, event-loop delay and memory, so CPU overload answers 503 at once instead of queueing.
 */
export class PressureMonitor {
  private inFlight = 0;
  private sampled = { eventLoopDelayMs: 0, heapUsed: 0, rss: 0 };
  private previousDelayMs = 0;
  private longestLagMs = 0;
  private lastTick = performance.now();
  /** Requests per client address in the current quiet window. */
  private readonly requestsByAddress = new Map<string, number>();
  private addressWindowStart = performance.now();
  /** Requests whose body is still arriving, oldest first. */
  private readonly receiving = new Map<Request, { res: Response; release: () => void; since: number }>();
  private readonly timers: NodeJS.Timeout[];

  constructor(private readonly limits: PressureLimits) {
    // perf_hooks' histogram records nothing when each loop turn outlasts its reset window, so lateness is measured directly.
    const probe = setInterval(() => {
      const now = performance.now();
      this.longestLagMs = Math.max(this.longestLagMs, now - this.lastTick - LAG_PROBE_MS);
      this.lastTick = now;
    }, LAG_PROBE_MS);
    this.timers = [probe.unref(), setInterval(() => this.sample(), limits.sampleIntervalMs).unref()];
  }

  /** Why new work is refused right now, or null when it is welcome. */
  overloadReason(): OverloadReason | null {
    const { limits, sampled } = this;
    if (this.inFlight >= limits.maxInFlight) return 'in-flight';
    if (limits.maxEventLoopDelayMs > 0 && this.eventLoopStalled()) return 'event-loop-delay';
    if (limits.maxHeapUsedBytes > 0 && sampled.heapUsed > limits.maxHeapUsedBytes) return 'heap';
    if (limits.maxRssBytes > 0 && sampled.rss > limits.maxRssBytes) return 'rss';
    return null;
  }

  /**
   * Sheds with 503 + Retry-After. A request holds a slot from arrival to the end of its response; when all are
   * taken, one still waiting for its body after a second (a stalled or slowloris client) gives its slot up first.
   * While the event loop is stalled, an address that has sent only a few requests this second is still served:
   * the flood is shed, not the member who happens to click at the same time.
   */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (this.inFlight >= this.limits.maxInFlight) this.evictStalledUpload();
      const now = performance.now();
      // Counted per window of wall time here: while the loop stalls, the sampler does not run.
      if (now - this.addressWindowStart > QUIET_WINDOW_MS) {
        this.requestsByAddress.clear();
        this.addressWindowStart = now;
      }
      const address = req.ip ?? '';
      const sent = (this.requestsByAddress.get(address) ?? 0) + 1;
      this.requestsByAddress.set(address, sent);
      const reason = this.overloadReason();
      if (reason && !(reason === 'event-loop-delay' && sent <= this.limits.quietAddressRequestsPerSecond)) {
        // The connection stays open: a client sent away must not have to queue for a new one behind the flood.
        res.setHeader('Retry-After', '1');
        res.status(503).json({ message: 'The server is busy; please retry shortly.', code: 'UNAVAILABLE' });
        return;
      }
      this.hold(req, res);
      next();
    };
  }

  /**
   * A flood of requests that each finish within their own I/O callback keeps one loop turn going for seconds
   * (libuv polls again while events keep coming): so a turn running too long right now counts, as do two
   * sample windows in a row with a long stall (a lasting overload, not one long synchronous task).
   */
  private eventLoopStalled(): boolean {
    const max = this.limits.maxEventLoopDelayMs;
    if (performance.now() - this.lastTick - LAG_PROBE_MS > max) return true;
    return Math.min(this.sampled.eventLoopDelayMs, this.previousDelayMs) > max;
  }

  close(): void {
    for (const timer of this.timers) clearInterval(timer);
  }

  private hold(req: Request, res: Response): void {
    this.inFlight++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.receiving.delete(req);
    };
    res.once('finish', release);
    res.once('close', release);
    if (!hasBody(req)) return;
    this.receiving.set(req, { res, release, since: performance.now() });
    req.once('end', () => this.receiving.delete(req));
  }

  private evictStalledUpload(): void {
    const [oldest] = this.receiving;
    if (!oldest || performance.now() - oldest[1].since < STALLED_BODY_MS) return;
    const [req, { res, release }] = oldest;
    release();
    if (!res.headersSent) {
      res.setHeader('Connection', 'close');
      res.status(408).json({ message: 'The request body stopped arriving; please send it again.', code: 'TIMEOUT' });
    }
    req.socket.destroySoon();
  }

  private sample(): void {
    this.previousDelayMs = this.sampled.eventLoopDelayMs;
    const memory = process.memoryUsage();
    this.sampled = { eventLoopDelayMs: Math.max(0, this.longestLagMs), heapUsed: memory.heapUsed, rss: memory.rss };
    this.longestLagMs = 0;
    logger.debug({ ...this.sampled, inFlight: this.inFlight, receiving: this.receiving.size }, 'pressure');
  }
}
