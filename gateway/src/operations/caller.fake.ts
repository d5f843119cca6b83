import type { User } from '@app/schema';
import type { Caller } from './caller';

/** Callers for unit tests of operations: a member (or a visitor, with null) calling from one address. */
export const fakeMember = (overrides: Partial<User> = {}): User => ({
  id: '6f1c8a52-3c1e-4b8e-9a57-2f4de1c0a001',
  email: 'member@example.com',
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  tokens: 0,
  role: 'member',
  ratingPreferences: { suggestive: 'blur', explicit: 'blur' },
  ageAssurance: { level: 'declared', method: 'self_declaration', checkedAt: '2026-01-01T00:00:00.000Z' },
  ...overrides,
});

export const callerFor = (who: User | null, overrides: Partial<Caller> = {}): Caller => ({
  user: who,
  scopes: null,
  isOperator: false,
  clientIp: '203.0.113.7',
  meta: { requestId: 'test', userId: who?.id },
  session: { token: null, start: () => undefined, end: () => undefined },
  ...overrides,
});
