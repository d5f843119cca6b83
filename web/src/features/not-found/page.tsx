import { Button, Card, Center, Flex, Heading, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useAuth } from '../../auth/auth-context';
import { AlertIcon } from '../../components/icons/icons';
import { LanguagePicker } from '../../components/language-picker';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { signInPathReturningTo } from '../auth/return-path';

/**
 * Spec §1: any unknown path. A visitor may have opened a member page signed out, so they can log in and come back to it,
 * and pick their language.
 */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { pathname, search, hash } = useLocation();
  useDocumentTitle(t('notFound.documentTitle'));
  return (
    <Center minH={{ base: '60dvh', md: '70dvh' }} px="4">
      <Card.Root maxW="md" w="full">
        <Card.Body gap="4">
          <HStack gap="3" align="start">
            <AlertIcon boxSize="8" color="red.400" flexShrink="0" />
            <Heading as="h1" size="2xl" minW="0" overflowWrap="anywhere">
              {t('notFound.title')}
            </Heading>
          </HStack>
          <Text color="fg.muted">{t('notFound.text')}</Text>
          <Flex gap="3" wrap="wrap">
            <Button asChild variant="outline" size="sm">
              <RouterLink to="/">{t('notFound.home')}</RouterLink>
            </Button>
            {!user && (
              <Button asChild colorPalette="purple" size="sm">
                <RouterLink to={signInPathReturningTo(`${pathname}${search}${hash}`)}>{t('notFound.logIn')}</RouterLink>
              </Button>
            )}
            {/* A visitor here has no navigation bar, so no other way to their language. */}
            {!user && <LanguagePicker ms="auto" />}
          </Flex>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
