import { createHash } from 'node:crypto';

/** The SHA-256 of a session token: what identity stores, and how gateways name a session without keeping its secret in their maps. */
export const hashSessionToken = (token: string): string => createHash('sha256').update(token).digest('hex');
