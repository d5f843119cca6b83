import { Button, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { removeStaticLanding } from '../prerender/static-landing';

interface State {
  hasError: boolean;
}

function ErrorScreen() {
  const { t } = useTranslation();
  return (
    <Center minH="100dvh" px="4">
      <Stack gap="4" textAlign="center" align="center" role="alert">
        <Heading as="h1" size="2xl">
          {t('errorBoundary.title')}
        </Heading>
        <Text color="fg.muted">{t('errorBoundary.text')}</Text>
        <Button colorPalette="purple" onClick={() => window.location.reload()}>
          {t('errorBoundary.reload')}
        </Button>
      </Stack>
    </Center>
  );
}

/** Last-resort screen, e.g. when a screen's code chunk fails to load after a deploy. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { hasError: false };

  static getDerivedStateFromError(): State {
    return { hasError: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unhandled UI error', error, info.componentStack);
    // #root stays hidden while the pre-rendered landing is up: the error screen must not sit behind an inert copy.
    removeStaticLanding();
  }

  override render() {
    if (!this.state.hasError) return this.props.children;
    return <ErrorScreen />;
  }
}
