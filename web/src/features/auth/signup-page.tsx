import { Box, Button, chakra, HStack, Input, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../../auth/auth-context';
import { describeRegisterError } from '../../auth/auth-errors';
import { AuthCard } from './components/auth-card';
import { authScreenKeepingNext, safeReturnPath } from './return-path';
import { FormField } from '../../components/form-field';
import {
  MIN_PASSWORD_LENGTH,
  MINIMUM_AGE,
  validateRegistration,
  type FieldErrors,
  type RegistrationField,
  type RegistrationForm,
} from './registration-validation';

const EMPTY_FORM: RegistrationForm = {
  email: '',
  password: '',
  confirmPassword: '',
  firstName: '',
  lastName: '',
  dateOfBirth: '',
  acceptTerms: false,
};

const TERMS_CHECKBOX_ID = 'accept-terms';
const TERMS_ERROR_ID = 'accept-terms-error';

function todayIsoDate(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A router link styled for running text; Trans fills in its translated children. */
function TextLink({ to, children }: { to: string; children?: ReactNode }) {
  return (
    <Link asChild color="purple.300" fontWeight="medium">
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}

export default function SignUpPage() {
  const { register } = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { t } = useTranslation();
  const [values, setValues] = useState<RegistrationForm>(EMPTY_FORM);
  const [clientErrors, setClientErrors] = useState<FieldErrors<RegistrationField>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [hasSubmitted, setHasSubmitted] = useState(false);
  const [isSubmitting, setIsSubmitting] = useState(false);

  function update<F extends RegistrationField>(field: F, value: RegistrationForm[F]) {
    const next = { ...values, [field]: value };
    setValues(next);
    if (hasSubmitted) setClientErrors(validateRegistration(next));
    if (serverErrors[field]) {
      setServerErrors(({ [field]: _cleared, ...rest }) => rest);
    }
  }

  const errorFor = (field: RegistrationField) => clientErrors[field] ?? serverErrors[field];

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setHasSubmitted(true);
    const errors = validateRegistration(values);
    setClientErrors(errors);
    setServerErrors({});
    if (Object.keys(errors).length > 0) return;

    setIsSubmitting(true);
    setFormError(null);
    try {
      await register({
        email: values.email.trim(),
        password: values.password,
        confirmPassword: values.confirmPassword,
        firstName: values.firstName.trim() || null,
        lastName: values.lastName.trim() || null,
        dateOfBirth: values.dateOfBirth,
        acceptTerms: values.acceptTerms,
      });
      // Back to the member page the visitor opened signed out (sent here from the 404's "Log in"), or home.
      await navigate(safeReturnPath(searchParams.get('next'), window.location.origin) ?? '/', { replace: true });
    } catch (error) {
      const described = describeRegisterError(error);
      setFormError(described.formError);
      setServerErrors(described.fieldErrors);
    } finally {
      setIsSubmitting(false);
    }
  }

  const termsError = errorFor('acceptTerms');

  return (
    <AuthCard
      documentTitle={t('auth.signUp.documentTitle')}
      title={t('auth.signUp.title')}
      subtitle={t('auth.signUp.subtitle')}
      error={formError}
      footer={
        <Trans
          i18nKey="auth.signUp.footer"
          components={{ anchor: <TextLink to={authScreenKeepingNext('/signin', searchParams.get('next'), window.location.origin)} /> }}
        />
      }
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="4">
          <FormField label={t('auth.fields.email')} error={errorFor('email')}>
            <Input
              type="email"
              name="email"
              autoComplete="email"
              value={values.email}
              onChange={(event) => update('email', event.target.value)}
            />
          </FormField>
          <FormField
            label={t('auth.fields.password')}
            error={errorFor('password')}
            helperText={t('auth.signUp.passwordHelp', { min: MIN_PASSWORD_LENGTH })}
          >
            <Input
              type="password"
              name="password"
              autoComplete="new-password"
              value={values.password}
              onChange={(event) => update('password', event.target.value)}
            />
          </FormField>
          <FormField label={t('auth.fields.confirmPassword')} error={errorFor('confirmPassword')}>
            <Input
              type="password"
              name="confirmPassword"
              autoComplete="new-password"
              value={values.confirmPassword}
              onChange={(event) => update('confirmPassword', event.target.value)}
            />
          </FormField>
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <FormField label={t('auth.fields.firstName')} error={errorFor('firstName')} helperText={t('common.optional')}>
              <Input
                name="firstName"
                autoComplete="given-name"
                value={values.firstName}
                onChange={(event) => update('firstName', event.target.value)}
              />
            </FormField>
            <FormField label={t('auth.fields.lastName')} error={errorFor('lastName')} helperText={t('common.optional')}>
              <Input
                name="lastName"
                autoComplete="family-name"
                value={values.lastName}
                onChange={(event) => update('lastName', event.target.value)}
              />
            </FormField>
          </SimpleGrid>
          <FormField label={t('auth.fields.dateOfBirth')} error={errorFor('dateOfBirth')}>
            <Input
              type="date"
              name="dateOfBirth"
              autoComplete="bday"
              max={todayIsoDate()}
              value={values.dateOfBirth}
              onChange={(event) => update('dateOfBirth', event.target.value)}
            />
          </FormField>
          <Box>
            <HStack align="flex-start" gap="3">
              <chakra.input
                type="checkbox"
                id={TERMS_CHECKBOX_ID}
                name="acceptTerms"
                checked={values.acceptTerms}
                onChange={(event) => update('acceptTerms', event.target.checked)}
                aria-invalid={termsError ? true : undefined}
                aria-describedby={termsError ? TERMS_ERROR_ID : undefined}
                boxSize="4"
                mt="1"
                flexShrink={0}
                cursor="pointer"
                css={{ accentColor: 'var(--chakra-colors-purple-500)' }}
              />
              <chakra.label htmlFor={TERMS_CHECKBOX_ID} fontSize="sm" cursor="pointer">
                <Trans
                  i18nKey="auth.signUp.acceptTerms"
                  values={{ age: MINIMUM_AGE }}
                  components={{ anchor: <Link href="/tos" target="_blank" rel="noopener" color="purple.300" /> }}
                />
              </chakra.label>
            </HStack>
            {termsError && (
              <Text id={TERMS_ERROR_ID} color="fg.error" fontSize="sm" mt="1.5">
                {termsError}
              </Text>
            )}
          </Box>
          <Button type="submit" colorPalette="purple" loading={isSubmitting} mt="2">
            {t('auth.signUp.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
