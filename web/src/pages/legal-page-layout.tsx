import { Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useDocumentTitle } from '../hooks/use-document-title';

/** Frame shared by the Terms of Service and Privacy Policy pages. */
export function LegalPageLayout({ title, dateLabel, children }: { title: string; dateLabel: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Container maxW="3xl" px="0">
      <Stack gap="6">
        <Button asChild variant="outline" size="sm" alignSelf="flex-start">
          <RouterLink to="/">Back to Home</RouterLink>
        </Button>
        <Stack gap="2">
          <Heading as="h1" size="3xl" letterSpacing="tight">
            {title}
          </Heading>
          <Text color="fg.muted">{dateLabel}</Text>
        </Stack>
        {children}
      </Stack>
    </Container>
  );
}
