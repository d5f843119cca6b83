import { Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';

/** A screen's title block; also names the browser tab after it. */
export function PageHeader({ title, description }: { title: string; description?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Stack gap="2" mb="8">
      <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="tight">
        {title}
      </Heading>
      {description && (
        <Text color="fg.muted" fontSize="lg">
          {description}
        </Text>
      )}
    </Stack>
  );
}
