import { Card, Center, Heading, HStack, Text } from '@chakra-ui/react';
import { AlertIcon } from '../components/icons';
import { useDocumentTitle } from '../hooks/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <Center minH={{ base: '60dvh', md: '70dvh' }} px="4">
      <Card.Root maxW="md" w="full">
        <Card.Body gap="4">
          <HStack gap="3">
            <AlertIcon boxSize="8" color="red.400" />
            <Heading as="h1" size="2xl">
              404 Page Not Found
            </Heading>
          </HStack>
          <Text color="fg.muted">Did you forget to add the page to the router?</Text>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
