import { Box, Button, Flex, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { BrandLink } from '../components/brand-link';
import { ChatIcon, GalleryIcon, ImageIcon } from '../components/icons';
import { PublicFooter } from '../components/public-layout';
import { MAIN_CONTENT_ID, SkipLink } from '../components/skip-link';
import { useDocumentTitle } from '../hooks/use-document-title';

const HIGHLIGHTS = [
  {
    icon: ChatIcon,
    title: 'AI girlfriend chat',
    text: 'Characters that remember who they are.',
  },
  {
    icon: ImageIcon,
    title: 'Image generation',
    text: 'Turn a description into artwork in seconds.',
  },
  {
    icon: GalleryIcon,
    title: 'Community gallery',
    text: 'Share your creations and find new ideas.',
  },
];

export default function LandingPage() {
  useDocumentTitle();
  return (
    <Flex direction="column" minH="100dvh" bg="bg">
      <SkipLink />
      <Box as="header" borderBottomWidth="1px" borderColor="border.muted">
        <Flex maxW="7xl" mx="auto" px={{ base: '4', md: '6' }} h="16" align="center" gap="4">
          <BrandLink />
          <HStack as="nav" aria-label="Account" gap="2" ms="auto">
            <Button asChild variant="ghost" size="sm">
              <RouterLink to="/signin">Log in</RouterLink>
            </Button>
            <Button asChild colorPalette="purple" size="sm">
              <RouterLink to="/signup">Get started</RouterLink>
            </Button>
          </HStack>
        </Flex>
      </Box>
      <Box as="main" id={MAIN_CONTENT_ID} tabIndex={-1} flex="1" _focus={{ outline: 'none' }}>
        <Stack
          as="section"
          aria-labelledby="hero-heading"
          maxW="4xl"
          mx="auto"
          px="4"
          py={{ base: '16', md: '28' }}
          gap="6"
          textAlign="center"
          align="center"
        >
          <Heading as="h1" id="hero-heading" size={{ base: '4xl', md: '6xl' }} letterSpacing="tight" lineHeight="1.1">
            Your imagination, brought to life by AI
          </Heading>
          <Text fontSize={{ base: 'lg', md: 'xl' }} color="fg.muted" maxW="2xl">
            Chat with AI characters, generate stunning images and share them in the gallery. An AI creative platform for adults.
          </Text>
          <Text fontSize="sm" color="fg.subtle">
            18+ only
          </Text>
        </Stack>
        <SimpleGrid
          as="section"
          aria-label="Features"
          id="features"
          columns={{ base: 1, md: 3 }}
          gap="6"
          maxW="6xl"
          mx="auto"
          px="4"
          pb="20"
        >
          {HIGHLIGHTS.map(({ icon: FeatureIcon, title, text }) => (
            <Stack key={title} p="6" rounded="xl" borderWidth="1px" borderColor="border.muted" gap="3">
              <FeatureIcon boxSize="6" color="purple.300" />
              <Heading as="h2" size="md">
                {title}
              </Heading>
              <Text color="fg.muted">{text}</Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Box>
      <PublicFooter />
    </Flex>
  );
}
