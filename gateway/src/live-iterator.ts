import { logger } from '@app/kit';

/** What a subscription's iterator hears: each value pushed, until the client leaves. */
export type Listener<T> = (value: T) => void;

/** Values queued for a subscriber that has not pulled yet; past this a slow subscriber loses updates. */
const MAX_BUFFERED = 1000;

/**
 * An async iterator over pushed values: it buffers between pulls, and `unregister` runs once when the client
 * leaves (graphql-ws calls `return`). `register` adds the listener and gives back how to remove it.
 */
export function listenerIterator<T>(label: string, register: (listener: Listener<T>) => () => void): AsyncIterableIterator<T> {
  const buffer: T[] = [];
  let wake: ((result: IteratorResult<T>) => void) | null = null;
  let done = false;
  const unregister = register((value) => {
    if (wake) {
      const resolve = wake;
      wake = null;
      resolve({ value, done: false });
    } else if (buffer.length < MAX_BUFFERED) {
      buffer.push(value);
    } else {
      logger.warn({ topic: label }, 'slow subscriber: dropping live update');
    }
  });
  const finish = (): Promise<IteratorResult<T>> => {
    if (done) return Promise.resolve({ value: undefined, done: true });
    done = true;
    unregister();
    wake?.({ value: undefined, done: true });
    wake = null;
    return Promise.resolve({ value: undefined, done: true });
  };
  return {
    next: () => {
      if (buffer.length > 0) return Promise.resolve({ value: buffer.shift()!, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        wake = resolve;
      });
    },
    return: finish,
    throw: finish,
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
