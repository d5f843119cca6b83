import os from 'node:os';
import { readInt } from '@app/kit';

export interface IdentityConfig {
  /** Tokens every new member receives (documented default: 10). */
  signupTokenGrant: number;
  /** A session ends after this long without use. */
  sessionIdleMs: number;
  /** A session ends this long after sign-in, used or not. */
  sessionAbsoluteMs: number;
  /** Sign-ups allowed per client address per hour (documented default: 10). */
  signupsPerIpPerHour: number;
  /** Password hashes computed at once; each takes a threadpool thread, a CPU core and 128 MiB while it runs. */
  passwordHashConcurrency: number;
  /** Hashes that may wait for a slot; further sign-ins and sign-ups are answered UNAVAILABLE at once. */
  passwordHashQueue: number;
  /** Sign-ins for unregistered e-mails checked against the decoy hash per minute (per instance); the rest are not hashed. */
  signinUnknownEmailPerMinute: number;
  clock: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** libuv's default threadpool size, which file reads, DNS lookups and compression share with scrypt. */
const DEFAULT_THREADPOOL_SIZE = 4;

/** Leaves two threadpool threads to the rest of the process and one core to the event loop. */
export function defaultPasswordHashConcurrency(): number {
  // libuv sizes its pool from the process's own environment, whatever the service was given.
  const threadpool = readInt(process.env, 'UV_THREADPOOL_SIZE', DEFAULT_THREADPOOL_SIZE);
  return Math.max(1, Math.min(threadpool - 2, os.availableParallelism() - 1));
}

export function readIdentityConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  return {
    signupTokenGrant: readInt(env, 'SIGNUP_TOKEN_GRANT', 10),
    sessionIdleMs: readInt(env, 'SESSION_IDLE_DAYS', 7) * DAY_MS,
    sessionAbsoluteMs: readInt(env, 'SESSION_ABSOLUTE_DAYS', 30) * DAY_MS,
    signupsPerIpPerHour: readInt(env, 'SIGNUPS_PER_IP_PER_HOUR', 10),
    passwordHashConcurrency: readInt(env, 'PASSWORD_HASH_CONCURRENCY', defaultPasswordHashConcurrency()),
    passwordHashQueue: readInt(env, 'PASSWORD_HASH_QUEUE', 8),
    signinUnknownEmailPerMinute: readInt(env, 'SIGNIN_UNKNOWN_EMAIL_PER_MINUTE', 60),
    clock: () => new Date(),
  };
}
