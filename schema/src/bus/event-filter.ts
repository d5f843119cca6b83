import { z } from 'zod';
import { EVENT_SUBJECTS, type EventEnvelope } from './contract';

/** Where an event names the members it concerns besides its actor. */
const MEMBER_KEYS = new Set(['userId', 'ownerId']);

/** A NATS subject pattern: dot-separated tokens, `*` for one token, `>` for the rest (last only). */
export function isSubjectPattern(pattern: string): boolean {
  const tokens = pattern.split('.');
  return tokens.every((token, index) => {
    if (token.length === 0 || /\s/.test(token)) return false;
    if (token === '>') return index === tokens.length - 1;
    return token === '*' || !/[*>]/.test(token);
  });
}

/** NATS subject matching: `*` matches one token, `>` the rest. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/** Which events an operator follows: a subject pattern, and optionally one member (the events' tail and live view alike). */
export const EventFilter = z.object({
  subject: z
    .string()
    .max(200)
    .refine(isSubjectPattern, { message: 'subject must be a subject pattern, such as evt.chat.> (* is one token, > the rest)' })
    .default(EVENT_SUBJECTS),
  memberId: z.string().uuid({ message: 'memberId must be a member id (a UUID)' }).nullable().default(null),
});
export type EventFilter = z.infer<typeof EventFilter>;

/** Whether an event is one the filter asks for: its type matches, and it was acted by or names the member. */
export function eventMatches(filter: EventFilter, envelope: EventEnvelope): boolean {
  if (!subjectMatches(filter.subject, envelope.type)) return false;
  return !filter.memberId || envelope.actorId === filter.memberId || namesMember(envelope.data, filter.memberId);
}

function namesMember(value: unknown, memberId: string): boolean {
  if (Array.isArray(value)) return value.some((item) => namesMember(item, memberId));
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, item]) => (MEMBER_KEYS.has(key) && item === memberId) || namesMember(item, memberId));
}
