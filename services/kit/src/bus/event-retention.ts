import { Environment, integer } from '../env/environment';

/** How much event history the bus keeps: JetStream's EVENTS limits, and the embedded log's segments. */
export interface EventRetention {
  /** Events older than this leave the stream. */
  maxAgeMs: number;
  /** Past this size the oldest events leave the stream first. */
  maxBytes: number;
}

const HOUR_MS = 3_600_000;

export const DEFAULT_EVENT_RETENTION: EventRetention = {
  // A month covers a projection rebuilt from the stream after any outage or bad deploy someone would still be fixing.
  maxAgeMs: 30 * 24 * HOUR_MS,
  // A guard for the disk, not the usual limit: events are ~0.5 KB, so 1 GiB holds ~2 million of them. NATS reserves
  // it up front, and 10 GiB was refused by servers with less than ~13 GiB free.
  maxBytes: 1024 ** 3,
};

/** Ten years: a stream is not an archive, and JetStream's age in nanoseconds stays well inside an int64. */
const MAX_AGE_HOURS = 87_600;
/** Below a megabyte the stream could not hold one burst of events. */
const MIN_BYTES = 1024 ** 2;

/** How much event history the bus keeps; every process must be given the same values (the last to start sets the stream's). */
export const eventsEnvironment = new Environment('every process', {
  EVENTS_MAX_AGE_HOURS: integer(DEFAULT_EVENT_RETENTION.maxAgeMs / HOUR_MS, {
    min: 1,
    max: MAX_AGE_HOURS,
    meaning:
      'Events older than this leave the event stream (JetStream `EVENTS` `max_age`; whole segments of the embedded log). Projections can be rebuilt from what is left.',
  }),
  EVENTS_MAX_BYTES: integer(DEFAULT_EVENT_RETENTION.maxBytes, {
    min: MIN_BYTES,
    defaultText: '`1073741824` (1 GiB)',
    meaning:
      'Past this size the oldest events leave the stream first. NATS sets this much storage aside when it creates the stream, so it must fit in the space the server allows JetStream.',
  }),
});

/** EVENTS_MAX_AGE_HOURS and EVENTS_MAX_BYTES; an invalid value throws an error naming the variable. */
export function readEventRetention(env: NodeJS.ProcessEnv): EventRetention {
  const vars = eventsEnvironment.parse(env);
  return { maxAgeMs: vars.EVENTS_MAX_AGE_HOURS * HOUR_MS, maxBytes: vars.EVENTS_MAX_BYTES };
}
