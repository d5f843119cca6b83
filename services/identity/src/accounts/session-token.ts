import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits; only the SHA-256 of a token is stored, so a database leak yields no usable session. */
export const generateSessionToken = (): string => randomBytes(32).toString('base64url');

export const hashSessionToken = (token: string): string => createHash('sha256').update(token).digest('hex');
