import type { CreateToasterProps, CreateToasterReturn } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export const TOAST_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  duration?: number;
  /** A button on the toast (e.g. "See plans"). */
  action?: { label: string; onClick: () => void };
}

export const TOASTER_OPTIONS = {
  placement: 'bottom-end',
  // Above the chat composer, whose Send and Stop buttons sit in the same corner (a toast must never cover Stop).
  offsets: { top: '1rem', right: '1rem', bottom: '8.5rem', left: '1rem' },
  duration: TOAST_DURATION_MS,
  // Spec §4/§9: only one toast at a time; F8 moves focus to the toast region.
  max: 1,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
} satisfies CreateToasterProps;

type ToastStore = CreateToasterReturn<ReactNode>;
type ToastOptions = Parameters<ToastStore['create']>[0];

/** Toasts asked for before the toast region (components/toast-region.tsx, its own chunk) has arrived. */
let waiting: (ToastOptions & { id: string })[] = [];
let store: ToastStore | undefined;
let nextId = 0;
const requestListeners = new Set<() => void>();

/**
 * The app's toaster. Chakra's toast store and its state machines come with the toast region, which
 * AppToaster mounts on the first request; until then requests wait here, in order.
 */
export const toaster = {
  create(options: ToastOptions): string {
    const id = options.id ?? `toast-${++nextId}`;
    if (store) return store.create({ ...options, id });
    waiting.push({ ...options, id });
    requestListeners.forEach((listener) => listener());
    return id;
  },
  /** Removes one toast, or every toast without an id. */
  remove(id?: string): void {
    if (store) return void store.remove(id);
    waiting = id === undefined ? [] : waiting.filter((toast) => toast.id !== id);
  },
  hasRequests(): boolean {
    return Boolean(store) || waiting.length > 0;
  },
  /** Calls `listener` on each request made while the region is not there yet. */
  onRequest(listener: () => void): () => void {
    requestListeners.add(listener);
    return () => void requestListeners.delete(listener);
  },
};

/** The toast region hands over its store; the waiting toasts go to it, and every later one straight to it. */
export function attachToastStore(regionStore: ToastStore): void {
  store = regionStore;
  for (const toast of waiting.splice(0)) store.create(toast);
}

/** Shows a toast, replacing whichever one is on screen. */
export function showToast({ title, description, variant = 'default', duration = TOAST_DURATION_MS, action }: ToastInput): string {
  toaster.remove();
  return toaster.create({
    title,
    description,
    duration,
    closable: true,
    action,
    type: variant === 'destructive' ? 'error' : 'info',
    meta: { variant },
  });
}
