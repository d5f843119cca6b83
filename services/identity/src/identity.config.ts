import os from 'node:os';
import { Environment, integer } from '@app/kit';
import { FREE_MONTHLY_TOKEN_ALLOWANCE } from '@app/schema';

export interface IdentityConfig {
  /** A one-off bonus every new member receives on top of the monthly allowance (default: none). */
  signupTokenGrant: number;
  /** Each UTC month a member's balance is topped up to this many tokens, once (decision 036). */
  monthlyTokenAllowance: number;
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
  const raw = Number(process.env.UV_THREADPOOL_SIZE);
  const threadpool = Number.isInteger(raw) && raw > 0 ? raw : DEFAULT_THREADPOOL_SIZE;
  return Math.max(1, Math.min(threadpool - 2, os.availableParallelism() - 1));
}

/** Everything identity reads from its environment (the README's configuration table comes from here). */
export const identityEnvironment = new Environment('identity', {
  FREE_MONTHLY_TOKENS: integer(FREE_MONTHLY_TOKEN_ALLOWANCE, {
    min: 0,
    meaning:
      "The Free plan's monthly allowance: each UTC month a member's balance is topped up to this many tokens, once (decision 036). `0` turns it off.",
  }),
  SIGNUP_TOKEN_GRANT: integer(0, {
    min: 0,
    meaning: 'A one-off bonus granted to every new member on top of the monthly allowance (`0` grants none).',
  }),
  SESSION_IDLE_DAYS: integer(7, { min: 1, meaning: 'A session ends after this many days without use.' }),
  SESSION_ABSOLUTE_DAYS: integer(30, {
    min: 1,
    meaning: "A session ends this many days after sign-in, used or not (also the cookie's `Max-Age`).",
  }),
  SIGNUPS_PER_IP_PER_HOUR: integer(10, { min: 0, meaning: 'Registrations allowed per client address per hour.' }),
  PASSWORD_HASH_CONCURRENCY: integer(defaultPasswordHashConcurrency, {
    min: 1,
    defaultText: 'threadpool size − 2 and cores − 1, at least 1 (1 on 2 cores)',
    meaning:
      "Password hashes (scrypt, 128 MiB each) computed at once. Kept below libuv's threadpool (`UV_THREADPOOL_SIZE`, default 4), which file reads and DNS share, and below the core count, so other requests stay fast during a sign-in flood.",
  }),
  PASSWORD_HASH_QUEUE: integer(8, {
    min: 0,
    meaning:
      'Sign-ins and sign-ups that may wait for a hash. One more, or one that could not be checked before its caller stops waiting, is answered at once with 503 `UNAVAILABLE` and `Retry-After`; half of the places are kept for registered e-mails and sign-ups.',
  }),
  SIGNIN_UNKNOWN_EMAIL_PER_MINUTE: integer(60, {
    min: 0,
    meaning:
      'Sign-ins for unregistered e-mails checked against the decoy hash per minute (per identity instance, all addresses together). Further ones get the same answer (`Invalid email or password`) after about the same time, without hashing. `0` hashes none.',
  }),
  UV_THREADPOOL_SIZE: integer(DEFAULT_THREADPOOL_SIZE, {
    min: 1,
    max: 1024,
    meaning: "libuv's threadpool size, read by Node.js itself; identity sizes `PASSWORD_HASH_CONCURRENCY` from it.",
  }),
});

export function readIdentityConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  const vars = identityEnvironment.parse(env);
  return {
    signupTokenGrant: vars.SIGNUP_TOKEN_GRANT,
    monthlyTokenAllowance: vars.FREE_MONTHLY_TOKENS,
    sessionIdleMs: vars.SESSION_IDLE_DAYS * DAY_MS,
    sessionAbsoluteMs: vars.SESSION_ABSOLUTE_DAYS * DAY_MS,
    signupsPerIpPerHour: vars.SIGNUPS_PER_IP_PER_HOUR,
    passwordHashConcurrency: vars.PASSWORD_HASH_CONCURRENCY,
    passwordHashQueue: vars.PASSWORD_HASH_QUEUE,
    signinUnknownEmailPerMinute: vars.SIGNIN_UNKNOWN_EMAIL_PER_MINUTE,
    clock: () => new Date(),
  };
}
