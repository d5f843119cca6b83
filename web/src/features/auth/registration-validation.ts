import { i18n } from '../../i18n/i18n';

export interface RegistrationForm {
  email: string;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD, as an <input type="date"> yields it. */
  dateOfBirth: string;
  acceptTerms: boolean;
}

export type RegistrationField = keyof RegistrationForm;
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export const MINIMUM_AGE = 18;
export const MIN_PASSWORD_LENGTH = 8;

/**
 * Spec §5 form messages, in the current interface language. Each read translates afresh, so a
 * message produced after a language switch is in the new language.
 */
export const VALIDATION_MESSAGES = {
  get email() {
    return i18n.t('validation.email');
  },
  get password() {
    return i18n.t('validation.password', { min: MIN_PASSWORD_LENGTH });
  },
  get confirmPassword() {
    return i18n.t('validation.confirmPassword');
  },
  get passwordRequired() {
    return i18n.t('validation.passwordRequired');
  },
  get dateOfBirth() {
    return i18n.t('validation.dateOfBirth');
  },
  get underage() {
    return i18n.t('validation.underage', { age: MINIMUM_AGE });
  },
  get acceptTerms() {
    return i18n.t('validation.acceptTerms', { age: MINIMUM_AGE });
  },
};

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

/** Whole years between a YYYY-MM-DD birth date and `today`; null when the date is not a real date. */
export function ageOn(dateOfBirth: string, today: Date): number | null {
  const match = DATE_PATTERN.exec(dateOfBirth);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const birth = new Date(Date.UTC(year, month - 1, day));
  if (birth.getUTCFullYear() !== year || birth.getUTCMonth() !== month - 1 || birth.getUTCDate() !== day) {
    return null;
  }
  let age = today.getFullYear() - year;
  const beforeBirthday = today.getMonth() + 1 < month || (today.getMonth() + 1 === month && today.getDate() < day);
  if (beforeBirthday) age -= 1;
  return age;
}

export function validateRegistration(form: RegistrationForm, today: Date = new Date()): FieldErrors<RegistrationField> {
  const errors: FieldErrors<RegistrationField> = {};
  if (!isValidEmail(form.email)) errors.email = VALIDATION_MESSAGES.email;
  if (form.password.length < MIN_PASSWORD_LENGTH) errors.password = VALIDATION_MESSAGES.password;
  if (form.confirmPassword !== form.password) {
    errors.confirmPassword = VALIDATION_MESSAGES.confirmPassword;
  }
  const age = ageOn(form.dateOfBirth, today);
  if (age === null) errors.dateOfBirth = VALIDATION_MESSAGES.dateOfBirth;
  else if (age < MINIMUM_AGE) errors.dateOfBirth = VALIDATION_MESSAGES.underage;
  if (!form.acceptTerms) errors.acceptTerms = VALIDATION_MESSAGES.acceptTerms;
  return errors;
}

export type SignInField = 'email' | 'password';

export function validateSignIn(form: { email: string; password: string }): FieldErrors<SignInField> {
  const errors: FieldErrors<SignInField> = {};
  if (!isValidEmail(form.email)) errors.email = VALIDATION_MESSAGES.email;
  if (!form.password) errors.password = VALIDATION_MESSAGES.passwordRequired;
  return errors;
}
