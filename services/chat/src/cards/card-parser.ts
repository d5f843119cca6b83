import path from 'node:path';
import { AppError, CHAT_LIMITS, type ErrorBody } from '@app/schema';
import { Piscina } from 'piscina';
import type { CardParseOutcome } from './card-parser.worker';
import type { CharacterCardData } from './character-card';
import type { WorkerModuleAliases } from './worker-module-aliases';

export interface CardParserOptions {
  /** Worker threads reading cards at the same time. */
  threads: number;
  /** Cards that may wait for a thread; more are refused. */
  queue: number;
  /** A card still being read after this long is abandoned and its thread stopped. */
  timeoutMs: number;
}

/** A card refused by the content rules in the worker, with what they matched (for the refusal record). */
export class CardRefused extends AppError {
  constructor(
    body: ErrorBody,
    readonly evidence: string[],
  ) {
    super(body.code, body.message, body.details);
  }
}

export interface ReadCard {
  data: CharacterCardData;
  /** The card's PNG without card or metadata chunks, for the avatar; null for JSON cards. */
  avatarPng: Buffer | null;
}

/** Retrying soon is reasonable: one card takes a second or two at most. */
const BUSY_RETRY_AFTER_SECONDS = 5;
/** A card's JSON inflates many times over as objects; past this the thread stops instead of the process. */
const WORKER_HEAP_MB = 512;
const WORKER_IDLE_MS = 30_000;

const busy = () =>
  new AppError('UNAVAILABLE', 'Too many character cards are being imported right now. Please try again in a few seconds.', {
    retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
  });
const tooSlow = () => new AppError('TIMEOUT', 'Reading this card took too long. Please try again, or with a smaller file.');
const cardMegabytes = CHAT_LIMITS.cardFileBytes / (1024 * 1024);

/** Bytes a base64 string decodes to, without decoding it. */
export function base64DecodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** Refuses an empty or oversized file before it is handed to a thread. */
export function assertCardFileSize(fileBase64: string): void {
  const bytes = base64DecodedLength(fileBase64);
  if (bytes <= 0) throw new AppError('VALIDATION_FAILED', 'This file is empty.');
  if (bytes > CHAT_LIMITS.cardFileBytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', `This file is too large (the limit is ${cardMegabytes} MB).`);
  }
}

/**
 * The worker beside this file: compiled JavaScript in production; under jest (which runs the TypeScript
 * sources) the `.ts` file, compiled on load by @swc-node/register, with workspace packages mapped as jest maps them.
 */
function workerEntry(): { filename: string; execArgv?: string[]; workerData?: WorkerModuleAliases } {
  const extension = path.extname(__filename);
  const filename = path.join(__dirname, `card-parser.worker${extension}`);
  if (extension !== '.ts') return { filename };
  return {
    filename,
    execArgv: [...process.execArgv, '--require', require.resolve('@swc-node/register')],
    workerData: {
      moduleAliases: {
        '@app/kit': require.resolve('@app/kit'),
        '@app/schema': require.resolve('@app/schema'),
        '@app/policy': require.resolve('@app/policy'),
      },
    },
  };
}

function asAppError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof Error && error.name === 'AbortError') return tooSlow();
  if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new AppError('VALIDATION_FAILED', 'This card holds too much data to be read.');
  }
  return error;
}

/**
 * Reads character cards in a bounded pool of worker threads (piscina), so the event loop keeps serving while a
 * large card is parsed. Work beyond the threads and the queue is refused at once with UNAVAILABLE and a
 * retry time; a card that takes longer than the time limit, or outlives its caller's deadline, is abandoned.
 */
export class CardParser {
  private readonly pool: Piscina<string, CardParseOutcome>;
  private inFlight = 0;

  constructor(private readonly options: CardParserOptions) {
    this.pool = new Piscina({
      ...workerEntry(),
      minThreads: 0,
      maxThreads: options.threads,
      maxQueue: options.queue,
      idleTimeout: WORKER_IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
  }

  /** Cards being read or waiting for a thread. */
  get pending(): number {
    return this.inFlight;
  }

  async read(fileBase64: string, deadlineAt?: number): Promise<ReadCard> {
    // Counted here: piscina's own queue limit does not count tasks that carry an AbortSignal.
    if (this.inFlight >= this.options.threads + this.options.queue) throw busy();
    const timeLeftMs = Math.min(this.options.timeoutMs, (deadlineAt ?? Infinity) - Date.now());
    if (timeLeftMs <= 0) throw tooSlow();
    this.inFlight++;
    try {
      const outcome = await this.pool.run(fileBase64, { signal: AbortSignal.timeout(timeLeftMs) });
      if (!outcome.ok)
        throw outcome.error.code === 'CONTENT_REJECTED'
          ? new CardRefused(outcome.error, outcome.evidence ?? [])
          : AppError.fromBody(outcome.error);
      const { avatarPng } = outcome;
      return {
        data: outcome.data,
        avatarPng: avatarPng ? Buffer.from(avatarPng.buffer, avatarPng.byteOffset, avatarPng.byteLength) : null,
      };
    } catch (error) {
      throw asAppError(error);
    } finally {
      this.inFlight--;
    }
  }

  /** Stops the threads; cards still being read fail. */
  close(): Promise<void> {
    return this.pool.destroy();
  }
}
