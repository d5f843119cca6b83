import type { Role } from '../../gql/graphql';

/** The operator screen's rules: who sees it, what it keeps, and how it words time. */

/** Only admins see the Operator screen; the server refuses everyone else too (FORBIDDEN). */
export function canOperate(role: Role | null | undefined): boolean {
  return role === 'ADMIN';
}

/** How often the services panel asks again ($SRV.PING/INFO answers are cheap, and instances come and go). */
export const SERVICES_REFRESH_MS = 10_000;

/** Events kept on screen; older ones are dropped so a busy stream cannot fill the tab's memory. */
export const EVENT_LIMIT = 200;

/** The quick subject choices, in the order they are offered. */
export const SUBJECT_PRESETS = [
  { key: 'all', subject: 'evt.>' },
  { key: 'chat', subject: 'evt.chat.>' },
  { key: 'media', subject: 'evt.media.>' },
  { key: 'identity', subject: 'evt.identity.>' },
] as const;

export const DEFAULT_SUBJECT = SUBJECT_PRESETS[0].subject;

/** The services in the order the platform starts them; any other name follows, alphabetically. */
const SERVICE_ORDER = ['identity', 'chat', 'media'];

/** The first part of an id: enough to tell instances or members apart on screen. */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

/** Instances grouped by service name, in SERVICE_ORDER, each group's instances oldest first. */
export function groupByService<T extends { name: string; startedAt: string }>(instances: readonly T[]): { name: string; instances: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const instance of instances) groups.set(instance.name, [...(groups.get(instance.name) ?? []), instance]);
  const rank = (name: string) => (SERVICE_ORDER.includes(name) ? SERVICE_ORDER.indexOf(name) : SERVICE_ORDER.length);
  return [...groups]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([name, members]) => ({ name, instances: [...members].sort((a, b) => a.startedAt.localeCompare(b.startedAt)) }));
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "5 minutes ago", "3 days ago", "now" in `language`: the largest whole unit since `startedAt`. */
export function formatSince(startedAt: string, now: number, language: string): string {
  const elapsed = Math.max(0, now - new Date(startedAt).getTime());
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (elapsed >= size) return format.format(-Math.floor(elapsed / size), unit);
  }
  return format.format(-Math.floor(elapsed / 1000), 'second');
}

/** An event's fields as indented JSON, for a preformatted block (React escapes it: no markup gets in). */
export function formatEventData(data: unknown): string {
  return JSON.stringify(data, null, 2) ?? '';
}

export interface EventFeed<T> {
  /** Newest first, at most EVENT_LIMIT. */
  events: T[];
  /** Events that were let go to stay within the limit, since the last Clear. */
  dropped: number;
  paused: boolean;
  /** What arrived while paused, newest first (shown on Resume). */
  held: T[];
}

export type EventFeedAction<T> = { type: 'received'; event: T } | { type: 'pause' } | { type: 'resume' } | { type: 'clear' };

export function createEventFeed<T>(): EventFeed<T> {
  return { events: [], dropped: 0, paused: false, held: [] };
}

/** Puts `incoming` (newest first) on top of `events` and trims to the limit, counting what falls off. */
function prepend<T>(incoming: readonly T[], events: readonly T[], limit: number): { events: T[]; dropped: number } {
  const all = [...incoming, ...events];
  return { events: all.slice(0, limit), dropped: Math.max(0, all.length - limit) };
}

/** The live list: new events on top, paused events held back, never more than `limit` in memory. */
export function eventFeedReducer<T>(feed: EventFeed<T>, action: EventFeedAction<T>, limit = EVENT_LIMIT): EventFeed<T> {
  switch (action.type) {
    case 'received': {
      if (feed.paused) {
        // Held events count against the same limit: a long pause must not grow without bound either.
        const held = prepend([action.event], feed.held, limit);
        return { ...feed, held: held.events, dropped: feed.dropped + held.dropped };
      }
      const next = prepend([action.event], feed.events, limit);
      return { ...feed, events: next.events, dropped: feed.dropped + next.dropped };
    }
    case 'pause':
      return { ...feed, paused: true };
    case 'resume': {
      const next = prepend(feed.held, feed.events, limit);
      return { events: next.events, dropped: feed.dropped + next.dropped, paused: false, held: [] };
    }
    case 'clear':
      return { ...createEventFeed<T>(), paused: feed.paused };
  }
}
