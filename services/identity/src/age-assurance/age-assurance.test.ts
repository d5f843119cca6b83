import { AppError } from '@app/schema';
import { type AgeAssurance, type AgeCheck, OperatorAttestation, SelfDeclaration, acceptAgeCheck, ageOn } from './age-assurance';

const NOW = new Date('2026-03-15T12:00:00Z');

/** A provider adapter that answers whatever it is told to, as a faulty or careless one might. */
const provider = (method: string, answer: unknown): AgeAssurance => ({ method, check: async () => answer as AgeCheck });

async function recorded(adapter: AgeAssurance, evidence: unknown = {}) {
  return acceptAgeCheck(adapter, await adapter.check(evidence, NOW), NOW);
}

describe('age assurance', () => {
  it('self-declaration admits an adult as declared and turns a declared minor away', async () => {
    const selfDeclaration = new SelfDeclaration();
    await expect(recorded(selfDeclaration, { dateOfBirth: '2008-03-15' })).resolves.toEqual({
      level: 'declared',
      method: 'self_declaration',
      checkedAt: NOW,
    });
    const underage = await selfDeclaration.check({ dateOfBirth: '2008-03-16' }, NOW).catch((error: unknown) => error);
    expect(underage).toBeInstanceOf(AppError);
    expect(underage).toMatchObject({ code: 'UNDERAGE', details: { fieldErrors: { dateOfBirth: 'You must be 18 or older to join.' } } });
  });

  it('a provider verifies only with a method Ofcom counts as highly effective', async () => {
    const verified = { level: 'verified', method: 'facial_age_estimation', checkedAt: NOW };
    await expect(recorded(provider('facial_age_estimation', verified))).resolves.toEqual(verified);
    // Self-declaration and unknown methods may record `declared`, never `verified`.
    await expect(recorded(provider('self_declaration', { ...verified, method: 'self_declaration' }))).rejects.toThrow(
      'self_declaration is not a highly effective method, so it cannot verify an age',
    );
    await expect(recorded(provider('checkbox', { level: 'declared', method: 'checkbox', checkedAt: NOW }))).resolves.toMatchObject({
      level: 'declared',
    });
  });

  it('refuses an answer that carries documents or a birth date, so none is ever stored', async () => {
    const leaky = { level: 'verified', method: 'photo_id_matching', checkedAt: NOW, dateOfBirth: '1990-01-01', document: 'passport.jpg' };
    await expect(recorded(provider('photo_id_matching', leaky))).rejects.toThrow(/is not an age check/);
  });

  it('refuses an answer for another method or dated in the future', async () => {
    await expect(recorded(provider('open_banking', { level: 'verified', method: 'credit_card_check', checkedAt: NOW }))).rejects.toThrow(
      'it answered for another method (credit_card_check)',
    );
    const later = new Date(NOW.getTime() + 60 * 60_000);
    await expect(recorded(provider('open_banking', { level: 'verified', method: 'open_banking', checkedAt: later }))).rejects.toThrow(
      'it is dated in the future',
    );
  });

  it("an operator's attestation verifies and needs the check's reference", async () => {
    await expect(recorded(new OperatorAttestation('mobile_network_operator'), { reference: 'MNO-5521' })).resolves.toEqual({
      level: 'verified',
      method: 'mobile_network_operator',
      checkedAt: NOW,
    });
    await expect(new OperatorAttestation('mobile_network_operator').check({ reference: '  ' }, NOW)).rejects.toThrow();
  });

  it('counts whole years, a birthday on the day included', () => {
    expect(ageOn('2008-03-15', NOW)).toBe(18);
    expect(ageOn('2008-03-16', NOW)).toBe(17);
    expect(ageOn('2008-02-29', new Date('2026-02-28T23:59:00Z'))).toBe(17);
  });
});
