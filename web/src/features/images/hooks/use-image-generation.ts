import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { GenerateImageInput, GenerationJobFieldsFragment } from '../../../gql/graphql';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { i18n } from '../../../i18n/i18n';
import { TOASTS } from '../../../lib/error-toasts';
import { GenerationTracker } from '../generation-tracker';
import {
  ActiveGenerationsDocument,
  CancelGenerationDocument,
  GenerateImageDocument,
  GenerationDocument,
  GenerationUpdatesDocument,
} from '../operations';

export type GenerationJob = GenerationJobFieldsFragment;

/** A tracked job with no live news for this long is read again (an update may have been missed). */
const SILENCE_CHECK_MS = 5000;

export interface GenerationHandlers {
  /** The tracked job ended: DONE (with its image), FAILED or CANCELLED. Called once per job. */
  onFinished: (job: GenerationJob) => void;
  /** generateImage itself failed (nothing was queued): the screen explains it. */
  onStartFailed: (error: unknown) => void;
}

/**
 * The generator's job: starts it, follows its progress live (generationUpdates), picks a running
 * one back up after a reload (activeGenerations), and cancels it. See lib/generation-tracker.ts.
 */
export function useImageGeneration(handlers: GenerationHandlers) {
  const client = useApolloClient();
  const [tracker] = useState(() => new GenerationTracker<GenerationJob>());
  const [job, setJob] = useState<GenerationJob | null>(null);
  const { run: runStart, pending: starting } = useMutationToast();
  const { run: runCancel, pending: cancelling } = useMutationToast();
  const lastNewsAt = useRef(0);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });

  const apply = useCallback(
    (ended: GenerationJob[]) => {
      setJob(tracker.current());
      for (const finished of ended) handlersRef.current.onFinished(finished);
    },
    [tracker],
  );

  const receive = useCallback(
    (snapshot: GenerationJob) => {
      lastNewsAt.current = Date.now();
      apply(tracker.receive(snapshot));
    },
    [apply, tracker],
  );

  // Subscribe first, then catch up: a job started before this screen opened (a reload, another tab).
  useEffect(() => {
    let active = true;
    const subscription = client.subscribe({ query: GenerationUpdatesDocument }).subscribe({
      next: (result) => {
        const snapshot = result.data?.generationUpdates;
        if (active && snapshot) receive(snapshot);
      },
      // A dropped socket is retried by the client; the silence check below reads the job meanwhile.
      error: () => undefined,
    });
    client.query({ query: ActiveGenerationsDocument, fetchPolicy: 'network-only' }).then(
      ({ data }) => {
        if (!active || !data) return;
        // Newest first: that is the one shown; the others follow when it ends.
        [...data.activeGenerations].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).forEach(receive);
      },
      () => undefined,
    );
    return () => {
      active = false;
      subscription.unsubscribe();
    };
  }, [client, receive]);

  // While a job is shown, a silence (a missed update, a socket that dropped) is caught up by reading it.
  const jobId = job?.id;
  useEffect(() => {
    if (!jobId) return;
    const timer = window.setInterval(() => {
      if (Date.now() - lastNewsAt.current < SILENCE_CHECK_MS) return;
      lastNewsAt.current = Date.now();
      client.query({ query: GenerationDocument, variables: { id: jobId }, fetchPolicy: 'network-only' }).then(
        ({ data }) => {
          if (data) receive(data.generation);
        },
        () => undefined,
      );
    }, 1000);
    return () => window.clearInterval(timer);
  }, [client, jobId, receive]);

  const generate = useCallback(
    async (input: GenerateImageInput): Promise<boolean> => {
      if (tracker.isBusy()) return false;
      tracker.beginClaim();
      const data = await runStart({
        mutation: GenerateImageDocument,
        variables: { input },
        failure: TOASTS.generationFailed,
        handleError: (error) => {
          handlersRef.current.onStartFailed(error);
          return true;
        },
      });
      if (data) lastNewsAt.current = Date.now();
      apply(tracker.endClaim(data?.generateImage));
      return data !== undefined;
    },
    [apply, runStart, tracker],
  );

  const cancel = useCallback(async () => {
    const current = tracker.current();
    if (!current) return;
    const data = await runCancel({
      mutation: CancelGenerationDocument,
      variables: { id: current.id },
      failure: {
        title: i18n.t('images.toasts.cancelFailed.title'),
        description: i18n.t('images.toasts.cancelFailed.description'),
        variant: 'destructive',
      },
    });
    if (data) receive(data.cancelGeneration);
  }, [receive, runCancel, tracker]);

  return { job, starting, pending: starting || job !== null, cancelling, generate, cancel };
}
