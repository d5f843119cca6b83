import { Card, Center, Heading, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons/icons';
import { useDocumentTitle } from '../../hooks/use-document-title';

export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.documentTitle'));
  return (
    <Center minH={{ base: '60dvh', md: '70dvh' }} px="4">
      <Card.Root maxW="md" w="full">
        <Card.Body gap="4">
          <HStack gap="3">
            <AlertIcon boxSize="8" color="red.400" />
            <Heading as="h1" size="2xl">
              {t('notFound.title')}
            </Heading>
          </HStack>
          <Text color="fg.muted">{t('notFound.text')}</Text>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
