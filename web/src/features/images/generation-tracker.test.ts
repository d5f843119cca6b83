import type { GenerationStatus } from '../../gql/graphql';
import { GenerationTracker, type TrackedJob } from './generation-tracker';

const job = (id: string, status: GenerationStatus, progress: number | null = null, createdAt = '2026-01-01T00:00:00.000Z'): TrackedJob => ({
  id,
  status,
  progress,
  createdAt,
});

describe('GenerationTracker', () => {
  it('tracks the job it started, with its progress, and reports its end once', () => {
    const tracker = new GenerationTracker();
    tracker.beginClaim();
    expect(tracker.isBusy()).toBe(true);
    expect(tracker.endClaim(job('a', 'QUEUED'))).toEqual([]);
    expect(tracker.current()).toEqual(job('a', 'QUEUED'));
    tracker.receive(job('a', 'RUNNING', 0.1));
    tracker.receive(job('a', 'RUNNING', 0.2));
    expect(tracker.current()?.progress).toBe(0.2);
    expect(tracker.receive(job('a', 'DONE', 1))).toEqual([job('a', 'DONE', 1)]);
    expect(tracker.current()).toBeNull();
    expect(tracker.isBusy()).toBe(false);
    // A repeated final update is not reported again.
    expect(tracker.receive(job('a', 'DONE', 1))).toEqual([]);
  });

  it('keeps live updates that arrived before the answer, and ignores older snapshots', () => {
    const tracker = new GenerationTracker();
    tracker.beginClaim();
    tracker.receive(job('a', 'QUEUED'));
    tracker.receive(job('a', 'RUNNING', 0.3));
    // Not adopted while the call is in flight: it may belong to it, or not.
    expect(tracker.current()).toBeNull();
    tracker.endClaim(job('a', 'QUEUED'));
    expect(tracker.current()).toEqual(job('a', 'RUNNING', 0.3));
    tracker.receive(job('a', 'RUNNING', 0.2));
    expect(tracker.current()?.progress).toBe(0.3);
  });

  it('reports a job that ended before the answer arrived', () => {
    const tracker = new GenerationTracker();
    tracker.beginClaim();
    tracker.receive(job('a', 'RUNNING', 0.9));
    expect(tracker.receive(job('a', 'FAILED'))).toEqual([]);
    expect(tracker.endClaim(job('a', 'QUEUED'))).toEqual([job('a', 'FAILED')]);
    expect(tracker.current()).toBeNull();
  });

  it('picks up a job started elsewhere (after a reload or in another tab), the newest first', () => {
    const tracker = new GenerationTracker();
    tracker.receive(job('new', 'RUNNING', 0.5, '2026-01-01T00:00:02.000Z'));
    tracker.receive(job('old', 'QUEUED', null, '2026-01-01T00:00:01.000Z'));
    expect(tracker.current()?.id).toBe('new');
    expect(tracker.receive(job('new', 'CANCELLED'))).toEqual([job('new', 'CANCELLED')]);
    // The other one is still running: it is shown next.
    expect(tracker.current()?.id).toBe('old');
  });

  it('frees itself when the call fails', () => {
    const tracker = new GenerationTracker();
    tracker.beginClaim();
    expect(tracker.endClaim()).toEqual([]);
    expect(tracker.isBusy()).toBe(false);
  });

  it('ignores the end of jobs it does not show', () => {
    const tracker = new GenerationTracker();
    tracker.beginClaim();
    tracker.endClaim(job('a', 'RUNNING', 0.1));
    expect(tracker.receive(job('b', 'DONE', 1))).toEqual([]);
    expect(tracker.current()?.id).toBe('a');
  });
});
