import type { User } from '@app/schema';
import { ContentAccess } from './content-access';

const member = (overrides: Partial<User> = {}): User => ({
  id: '00000000-0000-4000-8000-000000000001',
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

describe('ContentAccess', () => {
  it('shows visitors safe content only', () => {
    expect(new ContentAccess(false).ratingsFor(null)).toEqual(['safe']);
  });

  it('lists blurred ratings (the client blurs them) and leaves hidden ones out', () => {
    const access = new ContentAccess(false);
    expect(access.ratingsFor(member())).toEqual(['safe', 'suggestive', 'explicit']);
    expect(access.ratingsFor(member({ ratingPreferences: { suggestive: 'show', explicit: 'hide' } }))).toEqual(['safe', 'suggestive']);
  });

  it('with age verification required, a self-declared member sees safe only until verified', () => {
    const access = new ContentAccess(true);
    expect(access.ratingsFor(member())).toEqual(['safe']);
    const verified = member({ ageAssurance: { level: 'verified', method: 'provider', checkedAt: '2026-01-02T00:00:00.000Z' } });
    expect(access.ratingsFor(verified)).toEqual(['safe', 'suggestive', 'explicit']);
  });
});
