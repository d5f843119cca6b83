import { storyEvents } from '@app/schema';
import type { FinishRecord, GenerationOutcome, GenerationRef, OrphanedTurn, SummaryWork, TurnKind } from '../generation/generation';
import { type PassageRow, type StoriesStore, toPassage } from './stories.repository';
import type { StoryLivePort } from './story-live';
import { finalizePassage } from './story-prompt';

const choicesOf = (extras: Record<string, unknown> | undefined): string[] | null => {
  const choices = extras?.choices;
  return Array.isArray(choices) && choices.every((choice) => typeof choice === 'string') ? choices : null;
};

/** Story passages as the generation engine writes them: stored in "chat"."story_passages", shown on the story's live subject. */
export class PassageTurns implements TurnKind {
  readonly kind = 'story_passage' as const;
  readonly policyPath = 'story.passage' as const;
  readonly refundReason = 'Story passage failed';

  constructor(
    private readonly store: StoriesStore,
    private readonly live: StoryLivePort,
  ) {}

  finalize(text: string): { content: string; extras: { choices: string[] } } {
    const { content, choices } = finalizePassage(text);
    return { content, extras: { choices } };
  }

  saveProgress(ref: GenerationRef, text: string, leaseMs: number): Promise<boolean> {
    return this.store.run(({ stories }) => stories.saveProgress(ref.turnId, text, leaseMs));
  }

  async finish(ref: GenerationRef, outcome: GenerationOutcome, record: FinishRecord): Promise<boolean> {
    // A stopped passage offers the choices it got to write; a failed one offers none.
    const written = finalizePassage(outcome.content);
    const choices = outcome.status === 'failed' ? [] : (choicesOf(outcome.extras) ?? written.choices);
    const row = await this.store.transaction(async ({ stories }, tx) => {
      const finished = await stories.finishPassage(ref.turnId, {
        content: written.content,
        choices,
        status: outcome.status,
        errorCode: outcome.errorCode,
      });
      if (!finished) return null;
      await stories.touch(ref.subjectId);
      const passage = { storyId: ref.subjectId, passageId: ref.turnId, userId: ref.userId };
      if ('completed' in record) {
        await tx.emit(storyEvents.passageCompleted, { ...passage, ...record.completed, choices: choices.length }, ref.userId);
      } else {
        await tx.emit(storyEvents.passageFailed, { ...passage, ...record.failed }, ref.userId);
      }
      return finished;
    });
    if (!row) return false;
    await this.live.publish({ type: 'passage', storyId: ref.subjectId, passage: toPassage(row) });
    return true;
  }

  async orphaned(limit: number): Promise<OrphanedTurn[]> {
    const rows = await this.store.run(({ stories }) => stories.orphanedPassages(limit));
    return rows.map(toOrphan);
  }

  /** Stories keep no rolling summary: a prompt keeps the premise and the newest passages of the branch instead. */
  async saveSummary(_subjectId: string, _summary: string, _work: SummaryWork): Promise<boolean> {
    return false;
  }

  publishTyping(storyId: string, typing: boolean): Promise<void> {
    return this.live.publish({ type: 'typing', storyId, typing });
  }

  publishDelta(ref: GenerationRef, offset: number, text: string): Promise<void> {
    return this.live.publish({ type: 'delta', storyId: ref.subjectId, passageId: ref.turnId, offset, text });
  }
}

function toOrphan(row: PassageRow): OrphanedTurn {
  return {
    kind: 'story_passage',
    subjectId: row.story_id,
    turnId: row.id,
    userId: row.owner_id,
    variant: 0,
    debitKey: row.debit_key ?? '',
    content: row.content,
    startedAt: new Date(row.created_at),
  };
}
