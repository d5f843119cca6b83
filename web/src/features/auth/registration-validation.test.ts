import { i18n } from '../../i18n/i18n';
import { ageOn, validateRegistration, validateSignIn, VALIDATION_MESSAGES, type RegistrationForm } from './registration-validation';

const TODAY = new Date(2025, 5, 15); // 15 June 2025, local time

const validForm: RegistrationForm = {
  email: 'ada@example.com',
  password: 'correct horse',
  confirmPassword: 'correct horse',
  firstName: '',
  lastName: '',
  dateOfBirth: '1990-01-31',
  acceptTerms: true,
};

describe('validateRegistration', () => {
  it('accepts a complete form with optional names left empty', () => {
    expect(validateRegistration(validForm, TODAY)).toEqual({});
  });

  it("uses the spec's messages for e-mail, password length and confirmation", () => {
    const errors = validateRegistration(
      {
        ...validForm,
        email: 'not-an-email',
        password: 'short',
        confirmPassword: 'shorter',
      },
      TODAY,
    );
    expect(errors.email).toBe('Please enter a valid email address');
    expect(errors.password).toBe('Password must be at least 8 characters');
    expect(errors.confirmPassword).toBe("Passwords don't match");
  });

  it('attaches a mismatch to confirmPassword only', () => {
    const errors = validateRegistration({ ...validForm, confirmPassword: 'different!' }, TODAY);
    expect(errors).toEqual({
      confirmPassword: VALIDATION_MESSAGES.confirmPassword,
    });
  });

  it('requires a real date of birth at least 18 years ago', () => {
    expect(validateRegistration({ ...validForm, dateOfBirth: '' }, TODAY).dateOfBirth).toBe(VALIDATION_MESSAGES.dateOfBirth);
    expect(validateRegistration({ ...validForm, dateOfBirth: '2007-06-16' }, TODAY).dateOfBirth).toBe(VALIDATION_MESSAGES.underage);
    expect(validateRegistration({ ...validForm, dateOfBirth: '2007-06-15' }, TODAY).dateOfBirth).toBe(undefined);
  });

  it('requires the age and terms confirmation', () => {
    expect(validateRegistration({ ...validForm, acceptTerms: false }, TODAY).acceptTerms).toBe(VALIDATION_MESSAGES.acceptTerms);
  });
});

describe('ageOn', () => {
  it('rejects impossible dates', () => {
    expect(ageOn('2001-02-30', TODAY)).toBeNull();
    expect(ageOn('01/02/2001', TODAY)).toBeNull();
  });

  it('counts whole years', () => {
    expect(ageOn('2000-06-15', TODAY)).toBe(25);
    expect(ageOn('2000-06-16', TODAY)).toBe(24);
  });
});

describe('validateSignIn', () => {
  it('needs a valid e-mail and a password', () => {
    expect(validateSignIn({ email: 'x', password: '' })).toEqual({
      email: VALIDATION_MESSAGES.email,
      password: VALIDATION_MESSAGES.passwordRequired,
    });
    expect(validateSignIn({ email: 'a@b.co', password: 'x' })).toEqual({});
  });
});

describe('VALIDATION_MESSAGES', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('follows the interface language, falling back to English', async () => {
    i18n.addResourceBundle('xx', 'translation', { validation: { email: 'Adresse invalide', password: 'Au moins {{min}} caractères' } });
    await i18n.changeLanguage('xx');
    expect(validateSignIn({ email: 'x', password: 'p' }).email).toBe('Adresse invalide');
    expect(VALIDATION_MESSAGES.password).toBe('Au moins 8 caractères');
    expect(VALIDATION_MESSAGES.confirmPassword).toBe("Passwords don't match");
  });
});
