import type { CaseReason, ModerationAction, ModerationState, ReportReason, ReportTargetKind, Role } from '../../gql/graphql';

/** The moderation rules the screens follow (schema/src/bus/moderation.ts holds the server's). */

export const REPORT_REASONS = [
  'MINOR',
  'NON_CONSENT',
  'REAL_PERSON',
  'ILLEGAL',
  'SPAM',
  'OTHER',
] as const satisfies readonly ReportReason[];

export const MODERATION_LIMITS = {
  /** A report's details. */
  reportDetails: 2000,
  /** A moderator's reason. */
  reason: 1000,
  /** A takedown's links, statement and work. */
  takedownText: 4000,
  /** A takedown's name and signature. */
  takedownField: 200,
} as const;

/** Moderators and admins see the Moderation screen; the server checks the role on every request too. */
export function canModerate(role: Role | null | undefined): boolean {
  return role === 'MODERATOR' || role === 'ADMIN';
}

/** The content actions a case offers for an item in `state` (its owner's suspension: memberActionFor). */
export function contentActionsFor(targetKind: ReportTargetKind, state: ModerationState | null): ModerationAction[] {
  // The item is gone (its owner deleted it): only the case itself, or its owner, can be acted on.
  if (state === null) return ['DISMISS'];
  const actions: ModerationAction[] = [];
  if (state === 'VISIBLE' && targetKind !== 'REPLY') actions.push('HIDE');
  if (state !== 'REMOVED') actions.push('REMOVE');
  if (state !== 'VISIBLE') actions.push('RESTORE');
  // Replies carry no rating.
  if (targetKind !== 'REPLY' && state !== 'REMOVED') actions.push('CHANGE_RATING');
  actions.push('DISMISS');
  return actions;
}

/** What a case offers for the item's owner: unsuspension once they are suspended, suspension before. */
export function memberActionFor(ownerSuspended: boolean): 'SUSPEND' | 'UNSUSPEND' {
  return ownerSuspended ? 'UNSUSPEND' : 'SUSPEND';
}

/** Whether a case's reason is a takedown's kind rather than a report's reason. */
export function isTakedownReason(reason: CaseReason): reason is 'INTIMATE_IMAGE' | 'RIGHTS' {
  return reason === 'INTIMATE_IMAGE' || reason === 'RIGHTS';
}

export type RelativeUnit = 'minute' | 'hour' | 'day';

/** How far `deadlineAt` is from `now`, in the largest whole unit that reads well (negative: past). */
export function timeUntil(deadlineAt: string, now: number): { value: number; unit: RelativeUnit; overdue: boolean } {
  const ms = new Date(deadlineAt).getTime() - now;
  const minutes = Math.trunc(ms / 60_000);
  const overdue = ms < 0;
  if (Math.abs(minutes) < 120) return { value: minutes, unit: 'minute', overdue };
  const hours = Math.trunc(minutes / 60);
  if (Math.abs(hours) < 48) return { value: hours, unit: 'hour', overdue };
  return { value: Math.trunc(hours / 24), unit: 'day', overdue };
}

/** "in 3 hours", "2 days ago"… in `locale`. */
export function formatTimeUntil(deadlineAt: string, now: number, locale: string): string {
  const { value, unit } = timeUntil(deadlineAt, now);
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(value, unit);
}

/** A date and time in `locale`, e.g. "Dec 3, 2025, 10:15 AM". */
export function formatDateTime(iso: string, locale: string, options: Intl.DateTimeFormatOptions = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...options }).format(date);
}
