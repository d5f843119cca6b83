import { AgeAssuranceLevel, AppError, MINIMUM_AGE } from '@app/schema';
import { z } from 'zod';

/**
 * Methods Ofcom's guidance counts as highly effective age assurance (Online Safety Act, Part 5).
 * Only these may make a member `verified`; self-declaration never does.
 */
export const HIGHLY_EFFECTIVE_METHODS = [
  'photo_id_matching',
  'facial_age_estimation',
  'open_banking',
  'credit_card_check',
  'mobile_network_operator',
  'digital_identity_wallet',
  'email_age_estimation',
] as const;
export const HighlyEffectiveMethod = z.enum(HIGHLY_EFFECTIVE_METHODS);
export type HighlyEffectiveMethod = z.infer<typeof HighlyEffectiveMethod>;

export const SELF_DECLARATION = 'self_declaration';

/**
 * What an adapter returns for one member: the level, how it was reached and when. Strict on purpose:
 * an adapter that passes back documents, a birth date or a face scan is refused, so none is ever stored.
 */
export const AgeCheck = z
  .object({
    level: AgeAssuranceLevel,
    method: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a lower-case method name'),
    checkedAt: z.date(),
  })
  .strict();
export type AgeCheck = z.infer<typeof AgeCheck>;

/**
 * One way of learning a member's age. Adapters: `SelfDeclaration` (sign-up) and, for a deployment
 * that contracts one, a provider adapter (it sends the member to the provider and reads its verdict).
 * `check` resolves to an `AgeCheck` that `acceptAgeCheck` accepts, or rejects with `UNDERAGE`.
 */
export interface AgeAssurance {
  /** The method name stored on the member. */
  readonly method: string;
  check(evidence: unknown, now: Date): Promise<AgeCheck>;
}

/** A provider's clock may run a little ahead of ours; more than this is a broken or forged verdict. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** The contract every adapter's answer must meet before identity stores it. */
export function acceptAgeCheck(adapter: AgeAssurance, raw: unknown, now: Date): AgeCheck {
  const parsed = AgeCheck.safeParse(raw);
  const refuse = (why: string): never => {
    throw new AppError('INTERNAL', `The age check by ${adapter.method} was not recorded: ${why}.`);
  };
  if (!parsed.success) return refuse(`its answer is not an age check (${parsed.error.issues.map((issue) => issue.message).join('; ')})`);
  const check = parsed.data;
  if (check.method !== adapter.method) refuse(`it answered for another method (${check.method})`);
  if (check.level === 'verified' && !HighlyEffectiveMethod.safeParse(check.method).success) {
    refuse(`${check.method} is not a highly effective method, so it cannot verify an age`);
  }
  if (check.checkedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) refuse('it is dated in the future');
  return check;
}

const SelfDeclarationEvidence = z.object({ dateOfBirth: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });

/** The sign-up form's date of birth: enough to turn away a declared minor, never enough to verify. */
export class SelfDeclaration implements AgeAssurance {
  readonly method = SELF_DECLARATION;

  async check(evidence: unknown, now: Date): Promise<AgeCheck> {
    const { dateOfBirth } = SelfDeclarationEvidence.parse(evidence);
    if (ageOn(dateOfBirth, now) < MINIMUM_AGE) {
      throw new AppError('UNDERAGE', 'You must be 18 or older to join.', {
        fieldErrors: { dateOfBirth: 'You must be 18 or older to join.' },
      });
    }
    return { level: 'declared', method: this.method, checkedAt: now };
  }
}

const AttestationEvidence = z.object({ reference: z.string().trim().min(1).max(200) });

/**
 * A check the operator ran outside the product (a provider's dashboard, an ID seen by support) and
 * records from the command line, naming the method and the provider's reference.
 */
export class OperatorAttestation implements AgeAssurance {
  constructor(readonly method: HighlyEffectiveMethod) {}

  async check(evidence: unknown, now: Date): Promise<AgeCheck> {
    AttestationEvidence.parse(evidence);
    return { level: 'verified', method: this.method, checkedAt: now };
  }
}

/** Whole years between a YYYY-MM-DD birth date and `now` (UTC). */
export function ageOn(dateOfBirth: string, now: Date): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - year;
  const beforeBirthday = now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day);
  if (beforeBirthday) age--;
  return age;
}
