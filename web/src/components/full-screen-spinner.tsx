import { Center, Spinner, VisuallyHidden } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** Shown while the authentication state loads (spec §2). */
export function FullScreenSpinner() {
  const { t } = useTranslation();
  return (
    <Center minH="100dvh" role="status" aria-live="polite" data-testid="auth-loading">
      <Spinner size="xl" color="purple.400" borderWidth="3px" />
      <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
    </Center>
  );
}

/** Shown inside the shell while a lazily loaded screen arrives. */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <Center py="24" role="status" aria-live="polite">
      <Spinner size="lg" color="purple.400" />
      <VisuallyHidden>{t('common.loadingPage')}</VisuallyHidden>
    </Center>
  );
}
