import {
  canModerate,
  contentActionsFor,
  formatDateTime,
  formatTimeUntil,
  isTakedownReason,
  memberActionFor,
  timeUntil,
} from './moderation';

describe('canModerate', () => {
  it('lets moderators and admins in, nobody else', () => {
    expect(canModerate('MODERATOR')).toBe(true);
    expect(canModerate('ADMIN')).toBe(true);
    expect(canModerate('MEMBER')).toBe(false);
    expect(canModerate(undefined)).toBe(false);
  });
});

describe('contentActionsFor', () => {
  it('offers what makes sense in each state', () => {
    expect(contentActionsFor('IMAGE', 'VISIBLE')).toEqual(['HIDE', 'REMOVE', 'CHANGE_RATING', 'DISMISS']);
    expect(contentActionsFor('CHARACTER', 'HIDDEN')).toEqual(['REMOVE', 'RESTORE', 'CHANGE_RATING', 'DISMISS']);
    expect(contentActionsFor('IMAGE', 'REMOVED')).toEqual(['RESTORE', 'DISMISS']);
  });

  it('never offers a rating (or hiding) for replies', () => {
    expect(contentActionsFor('REPLY', 'VISIBLE')).toEqual(['REMOVE', 'DISMISS']);
    expect(contentActionsFor('REPLY', 'REMOVED')).toEqual(['RESTORE', 'DISMISS']);
  });

  it('only dismisses a case whose item is gone', () => {
    expect(contentActionsFor('IMAGE', null)).toEqual(['DISMISS']);
  });
});

describe('memberActionFor', () => {
  it('offers unsuspension only while the owner is suspended, suspension only while they are not', () => {
    expect(memberActionFor(true)).toBe('UNSUSPEND');
    expect(memberActionFor(false)).toBe('SUSPEND');
  });
});

describe('isTakedownReason', () => {
  it("tells a takedown's kind from a report's reason", () => {
    expect(isTakedownReason('INTIMATE_IMAGE')).toBe(true);
    expect(isTakedownReason('RIGHTS')).toBe(true);
    expect(isTakedownReason('NON_CONSENT')).toBe(false);
  });
});

describe('timeUntil', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it('counts minutes, then hours, then days', () => {
    expect(timeUntil('2025-06-01T12:45:00Z', now)).toEqual({ value: 45, unit: 'minute', overdue: false });
    expect(timeUntil('2025-06-02T11:00:00Z', now)).toEqual({ value: 23, unit: 'hour', overdue: false });
    expect(timeUntil('2025-06-08T12:00:00Z', now)).toEqual({ value: 7, unit: 'day', overdue: false });
  });

  it('marks a past deadline overdue', () => {
    expect(timeUntil('2025-06-01T09:00:00Z', now)).toEqual({ value: -3, unit: 'hour', overdue: true });
  });

  it('reads in the current language', () => {
    expect(formatTimeUntil('2025-06-01T15:00:00Z', now, 'en')).toBe('in 3 hours');
    expect(formatTimeUntil('2025-05-30T12:00:00Z', now, 'en')).toBe('2 days ago');
    expect(formatTimeUntil('2025-06-01T15:00:00Z', now, 'de')).toBe('in 3 Stunden');
  });
});

describe('formatDateTime', () => {
  it('formats in the given language and leaves a broken date as it is', () => {
    expect(formatDateTime('2025-06-01T12:00:00Z', 'en', { timeZone: 'UTC' })).toBe('Jun 1, 2025, 12:00 PM');
    expect(formatDateTime('soon', 'en')).toBe('soon');
  });
});
