import { Center, Spinner, VisuallyHidden } from '@chakra-ui/react';

/** Shown while the authentication state loads (spec §2). */
export function FullScreenSpinner() {
  return (
    <Center minH="100dvh" role="status" aria-live="polite" data-testid="auth-loading">
      <Spinner size="xl" color="purple.400" borderWidth="3px" />
      <VisuallyHidden>Loading...</VisuallyHidden>
    </Center>
  );
}

/** Shown inside the shell while a lazily loaded screen arrives. */
export function PageSpinner() {
  return (
    <Center py="24" role="status" aria-live="polite">
      <Spinner size="lg" color="purple.400" />
      <VisuallyHidden>Loading page...</VisuallyHidden>
    </Center>
  );
}
