import type { ApolloClient, OperationVariables } from '@apollo/client';
import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { showErrorToast } from '../lib/error-toasts';
import { showToast, type ToastInput } from '../lib/toaster';

export type MutationToastOptions<TData, TVariables extends OperationVariables> = ApolloClient.MutateOptions<TData, TVariables> & {
  /** Shown when the mutation succeeds (from `TOASTS`, or built from the result); nothing when left out. */
  success?: ToastInput | ((data: TData) => ToastInput | null);
  /** The screen's own failure toast; session, tokens, quota, rate-limit and content-rule errors get theirs first. */
  failure: ToastInput;
  /**
   * A screen that explains some errors itself (inline, or with a toast of its own) returns true for them;
   * everything else gets the standard toast.
   */
  handleError?: (error: unknown) => boolean;
};

/**
 * One mutation with its busy flag, its success toast and its translated failure toast — what every member screen
 * used to write by hand around `client.mutate`. `run` resolves to the result's data, or undefined when it failed
 * (the member has already been told).
 */
export function useMutationToast() {
  const client = useApolloClient();
  const [pending, setPending] = useState(false);
  const mounted = useRef(true);
  // Set again on every mount: StrictMode runs effects, their clean-ups and the effects again.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    async <TData, TVariables extends OperationVariables>({
      success,
      failure,
      handleError,
      ...options
    }: MutationToastOptions<TData, TVariables>): Promise<TData | undefined> => {
      setPending(true);
      try {
        const { data } = await client.mutate<TData, TVariables>(options as ApolloClient.MutateOptions<TData, TVariables>);
        const toast = typeof success === 'function' ? (data === undefined ? null : success(data as TData)) : success;
        if (toast) showToast(toast);
        return (data as TData | undefined) ?? undefined;
      } catch (error) {
        if (!handleError?.(error)) showErrorToast(error, failure);
        return undefined;
      } finally {
        if (mounted.current) setPending(false);
      }
    },
    [client],
  );

  return { run, pending };
}
