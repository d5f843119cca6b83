import { randomBytes } from 'node:crypto';

export { hashSessionToken } from '@app/kit';

/** 256 random bits; only the SHA-256 of a token is stored, so a database leak yields no usable session. */
export const generateSessionToken = (): string => randomBytes(32).toString('base64url');
