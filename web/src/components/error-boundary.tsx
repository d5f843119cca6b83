import { Button, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  hasError: boolean;
}

/** Last-resort screen, e.g. when a screen's code chunk fails to load after a deploy. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { hasError: false };

  static getDerivedStateFromError(): State {
    return { hasError: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unhandled UI error', error, info.componentStack);
  }

  override render() {
    if (!this.state.hasError) return this.props.children;
    return (
      <Center minH="100dvh" px="4">
        <Stack gap="4" textAlign="center" align="center" role="alert">
          <Heading as="h1" size="2xl">
            Something went wrong
          </Heading>
          <Text color="fg.muted">Reload the page to try again.</Text>
          <Button colorPalette="purple" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Stack>
      </Center>
    );
  }
}
