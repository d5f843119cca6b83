import { member, operator, role } from './caller';
import { callerFor, fakeMember as user } from './caller.fake';

describe('the auth wrapper', () => {
  it('lets a member through and refuses a visitor as UNAUTHENTICATED', () => {
    const signedIn = user();
    expect(member(callerFor(signedIn))).toBe(signedIn);
    expect(() => member(callerFor(null))).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
  });

  it('asks for a role: a visitor is UNAUTHENTICATED, a member without it FORBIDDEN, a higher role passes', () => {
    expect(() => role(callerFor(null), 'moderator')).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    expect(() => role(callerFor(user()), 'moderator')).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', message: 'This needs the moderator role.' }),
    );
    const admin = user({ role: 'admin' });
    expect(role(callerFor(admin), 'moderator')).toBe(admin);
  });

  it('lets only the operator token through to operator operations, whatever the member', () => {
    expect(() => operator(callerFor(user({ role: 'admin' })))).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => operator(callerFor(null, { isOperator: true }))).not.toThrow();
  });
});
