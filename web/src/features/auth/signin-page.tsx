import { Button, Input, Link, Stack } from '@chakra-ui/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../../auth/auth-context';
import { describeSignInError } from '../../auth/auth-errors';
import { AuthCard } from './components/auth-card';
import { FormField } from '../../components/form-field';
import { validateSignIn, type FieldErrors, type SignInField } from './registration-validation';
import { authScreenKeepingNext, safeReturnPath } from './return-path';

/** A router link styled for running text; Trans fills in its translated children. */
function TextLink({ to, children }: { to: string; children?: ReactNode }) {
  return (
    <Link asChild color="purple.300" fontWeight="medium">
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}

export default function SignInPage() {
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { t } = useTranslation();
  const [values, setValues] = useState({ email: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<SignInField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [hasSubmitted, setHasSubmitted] = useState(false);
  const [isSubmitting, setIsSubmitting] = useState(false);

  function update(field: SignInField, value: string) {
    const next = { ...values, [field]: value };
    setValues(next);
    // Like the sign-up form: validate on submit, then keep the messages current while typing.
    if (hasSubmitted) setFieldErrors(validateSignIn(next));
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setHasSubmitted(true);
    const errors = validateSignIn(values);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;

    setIsSubmitting(true);
    setFormError(null);
    try {
      await signIn({ email: values.email.trim(), password: values.password });
      // Back where the visitor was sent from (a member page they opened signed out), or home.
      await navigate(safeReturnPath(searchParams.get('next'), window.location.origin) ?? '/', { replace: true });
    } catch (error) {
      const described = describeSignInError(error);
      setFormError(described.formError);
      setFieldErrors(described.fieldErrors);
    } finally {
      setIsSubmitting(false);
    }
  }

  return (
    <AuthCard
      documentTitle={t('auth.signIn.documentTitle')}
      title={t('auth.signIn.title')}
      subtitle={t('auth.signIn.subtitle')}
      error={formError}
      footer={
        <Trans
          i18nKey="auth.signIn.footer"
          components={{ anchor: <TextLink to={authScreenKeepingNext('/signup', searchParams.get('next'), window.location.origin)} /> }}
        />
      }
    >
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="4">
          <FormField label={t('auth.fields.email')} error={fieldErrors.email}>
            <Input
              type="email"
              name="email"
              autoComplete="email"
              value={values.email}
              onChange={(event) => update('email', event.target.value)}
            />
          </FormField>
          <FormField label={t('auth.fields.password')} error={fieldErrors.password}>
            <Input
              type="password"
              name="password"
              autoComplete="current-password"
              value={values.password}
              onChange={(event) => update('password', event.target.value)}
            />
          </FormField>
          <Button type="submit" colorPalette="purple" loading={isSubmitting} mt="2">
            {t('auth.signIn.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
