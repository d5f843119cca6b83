import { Badge, Box, Button, Center, Heading, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ExternalLinkIcon, SparklesIcon } from '../../components/icons/legal-icons';
import { MAIN_CONTENT_ID } from '../../components/skip-link';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { getBrandName, getRelaunchUrl } from '../../lib/app-config';

/**
 * Relaunch notice (spec §1, §2): a full-page announcement with a single call to action that opens the
 * new platform in a new tab. It renders outside the visitor and member shells, so it brings its own
 * <main> landmark. The spec defines a registration form for this screen but does not render it; neither do we.
 */
export default function RelaunchPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('relaunch.documentTitle'));
  const brand = getBrandName();

  return (
    <Center
      as="main"
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      minH="100dvh"
      px="4"
      py={{ base: '10', md: '16' }}
      bg="bg"
      bgImage="radial-gradient(ellipse at top, rgba(147, 51, 234, 0.25), transparent 60%)"
      _focus={{ outline: 'none' }}
    >
      <Box
        w="full"
        maxW="xl"
        bg="bg.panel"
        borderWidth="1px"
        borderColor="purple.800"
        rounded="2xl"
        shadow="2xl"
        px={{ base: '6', md: '10' }}
        py={{ base: '8', md: '12' }}
        textAlign="center"
      >
        <Stack gap="6" align="center">
          <Center boxSize="14" rounded="full" bg="purple.900" color="purple.200">
            <SparklesIcon boxSize="7" />
          </Center>
          <Badge colorPalette="purple" variant="subtle" size="lg" rounded="full" px="3">
            {brand}
          </Badge>
          <Heading as="h1" size={{ base: '2xl', md: '4xl' }} letterSpacing="tight" lineHeight="shorter">
            {t('relaunch.heading')}
          </Heading>
          <Stack gap="3" color="fg.muted" fontSize={{ base: 'md', md: 'lg' }} lineHeight="tall" maxW="md">
            <Text>{t('relaunch.thanks', { brand })}</Text>
            <Text>{t('relaunch.continue')}</Text>
          </Stack>
          <Button asChild colorPalette="purple" size="xl" rounded="full" px="8">
            <a href={getRelaunchUrl()} target="_blank" rel="noopener noreferrer">
              {t('relaunch.visit')}
              <ExternalLinkIcon />
              <VisuallyHidden>{t('common.opensInNewTab')}</VisuallyHidden>
            </a>
          </Button>
          <Text fontSize="sm" color="fg.muted">
            {t('relaunch.adultsOnly')}
          </Text>
        </Stack>
      </Box>
    </Center>
  );
}
