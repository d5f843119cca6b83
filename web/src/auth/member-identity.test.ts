import { memberIdentity } from './member-identity';

describe('memberIdentity', () => {
  it('shows the name with the e-mail beneath it', () => {
    expect(memberIdentity({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
  });

  it('shows the e-mail once for a member with no name', () => {
    expect(memberIdentity({ firstName: null, lastName: '  ', email: 'nameless@example.com' })).toEqual({
      name: 'nameless@example.com',
      email: null,
    });
  });
});
