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
  clock: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function readIdentityConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  return {
    signupTokenGrant: readInt(env, 'SIGNUP_TOKEN_GRANT', 10),
    sessionIdleMs: readInt(env, 'SESSION_IDLE_DAYS', 7) * DAY_MS,
    sessionAbsoluteMs: readInt(env, 'SESSION_ABSOLUTE_DAYS', 30) * DAY_MS,
    signupsPerIpPerHour: readInt(env, 'SIGNUPS_PER_IP_PER_HOUR', 10),
    clock: () => new Date(),
  };
}
