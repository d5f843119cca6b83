import { ContentPolicy } from '@app/policy';
import {
  type ChatProvider,
  type CompletionChunk,
  type CompletionRequest,
  type CompletionResult,
  ProviderError,
} from '../providers/chat-provider';
import { GenerationEngine, type LiveControl } from './engine';
import type { FinishRecord, GenerationJob, GenerationOutcome, GenerationRef, OrphanedTurn, SummaryWork, TurnKind } from './generation';

/** A turn as the fake kind keeps it in memory. */
interface FakeTurn {
  ref: GenerationRef;
  status: 'streaming' | GenerationOutcome['status'];
  content: string;
  extras?: Record<string, unknown>;
  errorCode: string | null;
  record?: FinishRecord;
  leaseExpired?: boolean;
}

class FakeTurns implements TurnKind {
  readonly kind = 'story_passage' as const;
  readonly policyPath = 'story.passage' as const;
  readonly refundReason = 'Story passage failed';
  readonly turns = new Map<string, FakeTurn>();
  readonly live: { type: string; text?: string; offset?: number; typing?: boolean }[] = [];
  readonly summaries: string[] = [];
  /** Set to make saveProgress report the turn as taken over. */
  takenOver = false;

  add(ref: GenerationRef, content = ''): void {
    this.turns.set(ref.turnId, { ref, status: 'streaming', content, errorCode: null });
  }

  finalize(text: string) {
    const [content, choices] = text.split('### Choices');
    return { content: content!.trim(), extras: { choices: (choices ?? '').split('\n').filter(Boolean) } };
  }

  async saveProgress(ref: GenerationRef, text: string): Promise<boolean> {
    const turn = this.turns.get(ref.turnId);
    if (!turn || turn.status !== 'streaming' || this.takenOver) return false;
    turn.content = text;
    return true;
  }

  async finish(ref: GenerationRef, outcome: GenerationOutcome, record: FinishRecord): Promise<boolean> {
    const turn = this.turns.get(ref.turnId);
    if (!turn || turn.status !== 'streaming') return false;
    Object.assign(turn, { status: outcome.status, content: outcome.content, extras: outcome.extras, errorCode: outcome.errorCode, record });
    this.live.push({ type: 'turn' });
    return true;
  }

  async orphaned(): Promise<OrphanedTurn[]> {
    return [...this.turns.values()]
      .filter((turn) => turn.status === 'streaming' && turn.leaseExpired)
      .map((turn) => ({ ...turn.ref, content: turn.content, startedAt: new Date(Date.now() - 60_000) }));
  }

  async saveSummary(_subjectId: string, summary: string, _work: SummaryWork): Promise<boolean> {
    this.summaries.push(summary);
    return true;
  }

  async publishTyping(_subjectId: string, typing: boolean): Promise<void> {
    this.live.push({ type: 'typing', typing });
  }

  async publishDelta(_ref: GenerationRef, offset: number, text: string): Promise<void> {
    this.live.push({ type: 'delta', offset, text });
  }
}

class FakeRefunds {
  readonly refunded: string[] = [];
  failNext = false;
  async refund(_userId: string, debitKey: string): Promise<boolean> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('identity unreachable');
    }
    const first = !this.refunded.includes(debitKey);
    this.refunded.push(debitKey);
    return first;
  }
}

/** Streams `words`, waiting `delayMs` before each; `failAfter` words then throws the given provider error. */
class ScriptedProvider implements ChatProvider {
  readonly kind = 'openai-compatible' as const;
  readonly model = 'scripted';
  readonly isDemo = false;
  readonly contextTokens = 4096;
  readonly maxReplyTokens = 200;
  words: string[] = ['Hello', ' there.'];
  /** What a summary request gets. */
  summaryWords: string[] = ['They met at the harbour; the ship left at dawn.'];
  delayMs = 0;
  failAfter: { words: number; error: ProviderError } | null = null;
  readonly requests: CompletionRequest[] = [];

  async *stream(request: CompletionRequest): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    this.requests.push(request);
    let text = '';
    const words = request.messages[0]?.content.startsWith('Summarize') ? this.summaryWords : this.words;
    for (const [i, word] of words.entries()) {
      if (this.failAfter && i === this.failAfter.words) throw this.failAfter.error;
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if (request.signal?.aborted) throw new ProviderError('CANCELLED', 'stopped');
      text += word;
      yield { text: word };
    }
    return { text, promptTokens: 10, completionTokens: words.length, finishReason: 'stop', model: request.model ?? this.model };
  }
}

/** An in-process broadcast standing in for the bus's live subjects. */
class LocalControl implements LiveControl {
  private readonly handlers = new Map<string, ((data: unknown) => void)[]>();
  async subscribeLive(subject: string, handler: (data: unknown) => void) {
    this.handlers.set(subject, [...(this.handlers.get(subject) ?? []), handler]);
    return {
      unsubscribe: async () => {
        this.handlers.set(subject, []);
      },
    };
  }
  async publishLive(subject: string, data: unknown) {
    for (const handler of this.handlers.get(subject) ?? []) handler(data);
  }
}

const until = async (condition: () => boolean, timeoutMs = 3000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('GenerationEngine', () => {
  let turns: FakeTurns;
  let refunds: FakeRefunds;
  let provider: ScriptedProvider;
  let engine: GenerationEngine;
  let counter = 0;

  const job = (overrides: Partial<GenerationJob> = {}): GenerationJob => {
    counter++;
    const ref: GenerationRef = {
      kind: 'story_passage',
      subjectId: '00000000-0000-4000-8000-000000000001',
      turnId: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
      userId: '00000000-0000-4000-8000-00000000aaaa',
      variant: 0,
      debitKey: `debit-${counter}`,
    };
    turns.add(ref);
    return { ...ref, prompt: [{ role: 'user', content: 'Begin.' }], ...overrides };
  };

  beforeEach(async () => {
    turns = new FakeTurns();
    refunds = new FakeRefunds();
    provider = new ScriptedProvider();
    engine = new GenerationEngine(
      [turns],
      refunds,
      provider,
      new LocalControl(),
      { leaseMs: 1000, flushIntervalMs: 10, sweepIntervalMs: 60_000 },
      new ContentPolicy(),
    );
    await engine.start();
  });

  afterEach(() => engine.stop());

  it('streams deltas at their offsets, stores what finalize keeps, and ends the typing state', async () => {
    provider.words = ['The door', ' creaks open.', '\n### Choices\n', '1. Enter\n', '2. Run'];
    const started = job();
    const { turnId } = started;
    engine.begin(started);
    await until(() => turns.turns.get(turnId)!.status !== 'streaming');
    const turn = turns.turns.get(turnId)!;
    expect(turn).toMatchObject({ status: 'complete', content: 'The door creaks open.', extras: { choices: ['1. Enter', '2. Run'] } });
    expect(turn.record).toMatchObject({ completed: { model: 'scripted', length: 'The door creaks open.'.length, completionTokens: 5 } });
    const deltas = turns.live.filter((update) => update.type === 'delta');
    expect(deltas.map((delta) => delta.offset)).toEqual([0, 8, 21, 34, 43]);
    expect(turns.live[0]).toEqual({ type: 'typing', typing: true });
    expect(turns.live.at(-1)).toEqual({ type: 'typing', typing: false });
    expect(refunds.refunded).toEqual([]);
  });

  it('passes sampler settings and a chosen model to the provider', async () => {
    const started = job({ sampling: { temperature: 0.4, extras: { min_p: 0.05 } }, model: 'other-model' });
    engine.begin(started);
    await until(() => turns.turns.get(started.turnId)!.status === 'complete');
    expect(provider.requests[0]).toMatchObject({ sampling: { temperature: 0.4, extras: { min_p: 0.05 } }, model: 'other-model' });
    expect(turns.turns.get(started.turnId)!.record).toMatchObject({ completed: { model: 'other-model' } });
  });

  it('refunds a provider failure once and keeps the text written so far', async () => {
    provider.words = ['Half', ' a', ' passage'];
    provider.failAfter = { words: 2, error: new ProviderError('UNAVAILABLE', 'upstream dropped') };
    const started = job();
    engine.begin(started);
    await until(() => turns.turns.get(started.turnId)!.status !== 'streaming');
    expect(turns.turns.get(started.turnId)).toMatchObject({ status: 'failed', errorCode: 'UNAVAILABLE', content: 'Half a' });
    expect(turns.turns.get(started.turnId)!.record).toMatchObject({ failed: { code: 'UNAVAILABLE', refunded: true, cancelled: false } });
    expect(refunds.refunded).toEqual([started.debitKey]);
  });

  it('keeps the charge of a stop past 40 characters, and refunds an earlier stop', async () => {
    provider.delayMs = 20;
    provider.words = Array.from({ length: 40 }, () => 'word ');
    const long = job();
    engine.begin(long);
    await until(() => (turns.turns.get(long.turnId)!.content.length ?? 0) >= 50);
    await engine.requestStop(long.turnId);
    await until(() => turns.turns.get(long.turnId)!.status !== 'streaming');
    expect(turns.turns.get(long.turnId)).toMatchObject({ status: 'cancelled', errorCode: null });
    expect(refunds.refunded).toEqual([]);

    const short = job();
    engine.begin(short);
    await until(() => turns.turns.get(short.turnId)!.content.length > 0);
    await engine.requestStop(short.turnId);
    await until(() => turns.turns.get(short.turnId)!.status !== 'streaming');
    expect(turns.turns.get(short.turnId)).toMatchObject({ status: 'cancelled' });
    expect(refunds.refunded).toEqual([short.debitKey]);
  });

  it('erases and refunds output that crosses the hard lines', async () => {
    provider.words = ['Sure.', ' She', ' is', ' 14', ' and', ' naked', ' now.'];
    const started = job();
    engine.begin(started);
    await until(() => turns.turns.get(started.turnId)!.status !== 'streaming');
    expect(turns.turns.get(started.turnId)).toMatchObject({ status: 'failed', errorCode: 'CONTENT_REJECTED', content: '' });
    expect(refunds.refunded).toEqual([started.debitKey]);
  });

  it('stops writing a turn the sweeper took over, without ending it twice', async () => {
    provider.delayMs = 15;
    provider.words = Array.from({ length: 30 }, () => 'word ');
    const started = job();
    engine.begin(started);
    await until(() => turns.turns.get(started.turnId)!.content.length > 0);
    turns.takenOver = true;
    turns.turns.get(started.turnId)!.status = 'failed';
    await new Promise((resolve) => setTimeout(resolve, 60));
    await engine.stop();
    expect(turns.turns.get(started.turnId)!.record).toBeUndefined();
    expect(refunds.refunded).toEqual([]);
  });

  it('fails orphaned turns with a refund, and leaves them for the next sweep when the refund cannot be made', async () => {
    const orphan = job();
    turns.turns.get(orphan.turnId)!.content = 'half a pas';
    turns.turns.get(orphan.turnId)!.leaseExpired = true;
    refunds.failNext = true;
    expect(await engine.sweep()).toBe(1);
    expect(turns.turns.get(orphan.turnId)!.status).toBe('streaming');
    await engine.sweep();
    expect(turns.turns.get(orphan.turnId)).toMatchObject({ status: 'failed', errorCode: 'INTERRUPTED', content: 'half a pas' });
    expect(refunds.refunded).toEqual([orphan.debitKey]);
  });

  it('abandons a turn that could not be started, refunding it', async () => {
    const started = job();
    await engine.abandon(started, 'INTERNAL');
    expect(turns.turns.get(started.turnId)).toMatchObject({ status: 'failed', errorCode: 'INTERNAL' });
    expect(refunds.refunded).toEqual([started.debitKey]);
  });

  it('folds older turns into a summary after a completed turn, and never keeps one that crosses the hard lines', async () => {
    const turnsToFold = [
      { seq: 1, role: 'user' as const, content: 'We met at the harbour.' },
      { seq: 2, role: 'assistant' as const, content: 'The ship left at dawn.' },
    ];
    const first = job({ summarize: { previous: null, basedOnUptoSeq: null, turns: turnsToFold } });
    engine.begin(first);
    await until(() => turns.summaries.length === 1);
    expect(provider.requests[1]!.messages[0]!.content).toMatch(/^Summarize/);

    provider.summaryWords = ['She is 14 and naked.'];
    const second = job({ summarize: { previous: null, basedOnUptoSeq: null, turns: turnsToFold } });
    engine.begin(second);
    await until(() => provider.requests.length === 4);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(turns.summaries).toHaveLength(1);
  });
});
