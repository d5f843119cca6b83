import { Alert, Card, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../../hooks/use-document-title';

/** Frame of the sign-in and sign-up forms. */
export function AuthCard({
  documentTitle,
  title,
  subtitle,
  error,
  children,
  footer,
}: {
  documentTitle: string;
  title: string;
  subtitle: string;
  error: string | null;
  children: ReactNode;
  footer: ReactNode;
}) {
  useDocumentTitle(documentTitle);
  return (
    <Card.Root maxW="md" mx="auto" w="full" variant="outline">
      <Card.Header gap="1">
        <Heading as="h1" size="2xl" letterSpacing="tight">
          {title}
        </Heading>
        <Text color="fg.muted">{subtitle}</Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="5">
          {error && (
            <Alert.Root status="error" role="alert" data-testid="form-error">
              <Alert.Indicator />
              <Alert.Description>{error}</Alert.Description>
            </Alert.Root>
          )}
          {children}
        </Stack>
      </Card.Body>
      <Card.Footer justifyContent="center">
        <Text fontSize="sm" color="fg.muted">
          {footer}
        </Text>
      </Card.Footer>
    </Card.Root>
  );
}
