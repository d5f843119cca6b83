import { getAvatarInitial, getDisplayName } from './avatar-initial';

describe('getAvatarInitial', () => {
  it('uses the first letter of the first name', () => {
    expect(getAvatarInitial({ firstName: 'ada', email: 'zed@example.com' })).toBe('A');
  });

  it('falls back to the first letter of the e-mail when there is no first name', () => {
    expect(getAvatarInitial({ firstName: null, email: 'zed@example.com' })).toBe('Z');
    expect(getAvatarInitial({ firstName: '   ', email: 'mia@example.com' })).toBe('M');
  });

  it('falls back to U when there is neither a first name nor an e-mail', () => {
    expect(getAvatarInitial({ firstName: '', email: '' })).toBe('U');
    expect(getAvatarInitial({})).toBe('U');
    expect(getAvatarInitial(null)).toBe('U');
    expect(getAvatarInitial(undefined)).toBe('U');
  });

  it('keeps a non-ASCII first character whole', () => {
    expect(getAvatarInitial({ firstName: 'élodie' })).toBe('É');
  });
});

describe('getDisplayName', () => {
  it('joins first and last name', () => {
    expect(
      getDisplayName({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'a@example.com',
      }),
    ).toBe('Ada Lovelace');
  });

  it('uses whichever name part exists', () => {
    expect(
      getDisplayName({
        firstName: null,
        lastName: 'Lovelace',
        email: 'a@example.com',
      }),
    ).toBe('Lovelace');
  });

  it('falls back to the e-mail when there is no name', () => {
    expect(
      getDisplayName({
        firstName: null,
        lastName: ' ',
        email: 'a@example.com',
      }),
    ).toBe('a@example.com');
  });
});
