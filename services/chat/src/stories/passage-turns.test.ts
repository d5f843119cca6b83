import type { Transaction } from '@app/kit';
import { type StoryLiveUpdate, storyEvents } from '@app/schema';
import type { GenerationRef } from '../generation/generation';
import { PassageTurns } from './passage-turns';
import type { PassageOutcome, PassageRow, StoriesData, StoriesStore } from './stories.repository';

const ref: GenerationRef = {
  kind: 'story_passage',
  subjectId: '00000000-0000-4000-8000-000000000001',
  turnId: '00000000-0000-4000-8000-000000000002',
  userId: '00000000-0000-4000-8000-000000000003',
  variant: 0,
  debitKey: 'story-passage:00000000-0000-4000-8000-000000000002',
};

const streamingRow = (): PassageRow => ({
  id: ref.turnId,
  seq: '7',
  story_id: ref.subjectId,
  owner_id: ref.userId,
  parent_id: null,
  depth: 0,
  action_kind: 'opening',
  action: null,
  content: 'The bottle',
  choices: [],
  status: 'streaming',
  model: 'demo',
  error_code: null,
  debit_key: ref.debitKey,
  save_point: null,
  moderation_state: 'visible',
  created_at: new Date('2025-01-01T00:00:00Z'),
  updated_at: new Date('2025-01-01T00:00:00Z'),
});

function setup() {
  let row: PassageRow | null = streamingRow();
  const events: { type: string; data: unknown }[] = [];
  const live: StoryLiveUpdate[] = [];
  const touched: string[] = [];
  const stories = {
    finishPassage: async (_id: string, outcome: PassageOutcome) => {
      if (row?.status !== 'streaming') return null;
      row = { ...row, content: outcome.content, choices: outcome.choices, status: outcome.status, error_code: outcome.errorCode };
      return row;
    },
    touch: async (id: string) => void touched.push(id),
    orphanedPassages: async () => (row?.status === 'streaming' ? [row] : []),
  } as unknown as StoriesData;
  const tx = {
    emit: async (event: { type: string }, data: unknown) => void events.push({ type: event.type, data }),
  } as unknown as Transaction;
  const store: StoriesStore = { run: (work) => work({ stories }), transaction: (work) => work({ stories }, tx) };
  const turns = new PassageTurns(store, { publish: async (update) => void live.push(update) });
  return { turns, events, live, touched };
}

const completed = { model: 'demo', latencyMs: 900, firstChunkMs: 40, promptTokens: 300, completionTokens: 120, length: 17 };

describe('PassageTurns', () => {
  it('splits the finished text into the passage and its choices', () => {
    const { turns } = setup();
    expect(turns.finalize('The bottle glows.\n### Choices\n1. Open it\n2. Drop it')).toEqual({
      content: 'The bottle glows.',
      extras: { choices: ['Open it', 'Drop it'] },
    });
  });

  it('completes the passage, announces it with its number of choices, then shows it live', async () => {
    const { turns, events, live, touched } = setup();
    const ended = await turns.finish(
      ref,
      { content: 'The bottle glows.', status: 'complete', errorCode: null, extras: { choices: ['Open it', 'Drop it'] } },
      { completed },
    );
    expect(ended).toBe(true);
    expect(touched).toEqual([ref.subjectId]);
    expect(events).toEqual([
      {
        type: storyEvents.passageCompleted.type,
        data: { storyId: ref.subjectId, passageId: ref.turnId, userId: ref.userId, ...completed, choices: 2 },
      },
    ]);
    expect(live).toEqual([
      {
        type: 'passage',
        storyId: ref.subjectId,
        passage: expect.objectContaining({ content: 'The bottle glows.', choices: ['Open it', 'Drop it'], status: 'complete' }),
      },
    ]);
  });

  it('keeps the choices a stopped passage got to write, and none of a failed one', async () => {
    const stopped = setup();
    const cancelled = { code: 'CANCELLED', cancelled: true, refunded: false, latencyMs: 500 };
    const text = 'The bottle glows.\n### Choices\n1. Open it\n2. Drop it';
    await stopped.turns.finish(ref, { content: text, status: 'cancelled', errorCode: null }, { failed: cancelled });
    expect(stopped.events).toEqual([
      { type: storyEvents.passageFailed.type, data: { storyId: ref.subjectId, passageId: ref.turnId, userId: ref.userId, ...cancelled } },
    ]);
    expect(stopped.live[0]).toMatchObject({
      type: 'passage',
      passage: { content: 'The bottle glows.', choices: ['Open it', 'Drop it'], status: 'cancelled' },
    });

    const broken = setup();
    const failed = { code: 'UNAVAILABLE', cancelled: false, refunded: true, latencyMs: 500 };
    await broken.turns.finish(ref, { content: text, status: 'failed', errorCode: 'UNAVAILABLE' }, { failed });
    expect(broken.live[0]).toMatchObject({
      passage: { content: 'The bottle glows.', choices: [], status: 'failed', errorCode: 'UNAVAILABLE' },
    });
  });

  it('does nothing for a passage another process already ended', async () => {
    const { turns, events, live } = setup();
    const outcome = { content: 'x', status: 'failed' as const, errorCode: 'INTERRUPTED' };
    const failed = { code: 'INTERRUPTED', cancelled: false, refunded: true, latencyMs: 1 };
    expect(await turns.finish(ref, outcome, { failed })).toBe(true);
    expect(await turns.finish(ref, outcome, { failed })).toBe(false);
    expect(events).toHaveLength(1);
    expect(live).toHaveLength(1);
  });

  it('hands orphaned passages to the engine with what it needs to fail and refund them', async () => {
    const { turns } = setup();
    expect(await turns.orphaned(10)).toEqual([
      {
        kind: 'story_passage',
        subjectId: ref.subjectId,
        turnId: ref.turnId,
        userId: ref.userId,
        variant: 0,
        debitKey: ref.debitKey,
        content: 'The bottle',
        startedAt: new Date('2025-01-01T00:00:00Z'),
      },
    ]);
  });

  it('streams typing and deltas on the story’s live subject', async () => {
    const { turns, live } = setup();
    await turns.publishTyping(ref.subjectId, true);
    await turns.publishDelta(ref, 10, ' glows');
    expect(live).toEqual([
      { type: 'typing', storyId: ref.subjectId, typing: true },
      { type: 'delta', storyId: ref.subjectId, passageId: ref.turnId, offset: 10, text: ' glows' },
    ]);
  });
});
