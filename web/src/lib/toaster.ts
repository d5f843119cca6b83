import { createToaster } from '@chakra-ui/react';

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

export const toaster = createToaster({
  placement: 'bottom-end',
  // Above the chat composer, whose Send and Stop buttons sit in the same corner (a toast must never cover Stop).
  offsets: { top: '1rem', right: '1rem', bottom: '8.5rem', left: '1rem' },
  duration: TOAST_DURATION_MS,
  // Spec §4/§9: only one toast at a time; F8 moves focus to the toast region.
  max: 1,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});

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
