import { Box, Button, Flex, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatNumber } from '../format';
import { LandingSection } from './landing-section';
import { ArrowRightIcon, HeartIcon } from '../../../components/icons/landing-icons';

type ShowcaseKey =
  | 'violetDusk'
  | 'auroraLake'
  | 'neonSkyline'
  | 'desertGlow'
  | 'oceanWhisper'
  | 'mistyForest'
  | 'cosmicDrift'
  | 'silkWaves';

export interface ShowcaseItem {
  key: ShowcaseKey;
  /** Served from web/public/showcase: the images ship with the product. */
  image: string;
  /** Author label as shown (a handle, not translated). */
  author: string;
  likes: number;
  /** Colours of the placeholder behind the image, shown while it loads or if it fails. */
  tint: [string, string];
}

/** Spec §1, §9: eight static showcase cards (title, author label, like count, image). */
export const SHOWCASE: readonly ShowcaseItem[] = [
  { key: 'violetDusk', image: '/showcase/violet-dusk.svg', author: '@nightowl', likes: 2431, tint: ['purple.900', 'purple.700'] },
  { key: 'auroraLake', image: '/showcase/aurora-lake.svg', author: '@borealis', likes: 1984, tint: ['gray.900', 'teal.900'] },
  { key: 'neonSkyline', image: '/showcase/neon-skyline.svg', author: '@synthwave', likes: 3120, tint: ['purple.950', 'pink.800'] },
  { key: 'desertGlow', image: '/showcase/desert-glow.svg', author: '@dunewalker', likes: 1275, tint: ['orange.800', 'orange.400'] },
  { key: 'oceanWhisper', image: '/showcase/ocean-whisper.svg', author: '@tidecaller', likes: 2867, tint: ['blue.200', 'blue.800'] },
  { key: 'mistyForest', image: '/showcase/misty-forest.svg', author: '@mossheart', likes: 1590, tint: ['green.100', 'teal.900'] },
  { key: 'cosmicDrift', image: '/showcase/cosmic-drift.svg', author: '@stargazer', likes: 4012, tint: ['purple.950', 'blue.900'] },
  { key: 'silkWaves', image: '/showcase/silk-waves.svg', author: '@velvetlines', likes: 2208, tint: ['purple.950', 'pink.900'] },
];

export const SHOWCASE_IMAGE_WIDTH = 480;
export const SHOWCASE_IMAGE_HEIGHT = 600;

function ShowcaseCard({ item }: { item: ShowcaseItem }) {
  const { t, i18n } = useTranslation();
  // Spec §2: an image that fails to load is hidden (the tinted frame stays, so the grid keeps its shape).
  const [failed, setFailed] = useState(false);
  const title = t(`landing.gallery.items.${item.key}.title`);
  return (
    <Box
      as="figure"
      m="0"
      rounded="xl"
      overflow="hidden"
      borderWidth="1px"
      borderColor="border.muted"
      bg="bg.subtle"
      transition="border-color 0.2s, transform 0.2s"
      _hover={{ borderColor: 'purple.600', transform: 'translateY(-2px)' }}
      data-testid="showcase-card"
    >
      <Box
        bgGradient="to-br"
        gradientFrom={item.tint[0]}
        gradientTo={item.tint[1]}
        aspectRatio={`${SHOWCASE_IMAGE_WIDTH} / ${SHOWCASE_IMAGE_HEIGHT}`}
      >
        <img
          src={item.image}
          alt={t(`landing.gallery.items.${item.key}.alt`)}
          width={SHOWCASE_IMAGE_WIDTH}
          height={SHOWCASE_IMAGE_HEIGHT}
          loading="lazy"
          decoding="async"
          hidden={failed}
          onError={() => setFailed(true)}
          style={{ display: failed ? 'none' : 'block', width: '100%', height: 'auto' }}
          data-testid="showcase-image"
        />
      </Box>
      <Stack as="figcaption" gap="1" p="4">
        <Heading as="h3" size="md">
          {title}
        </Heading>
        <Flex
          direction={{ base: 'column', md: 'row' }}
          justify="space-between"
          align={{ base: 'flex-start', md: 'center' }}
          gap={{ base: '0.5', md: '2' }}
          fontSize="sm"
          color="fg.muted"
        >
          <Text wordBreak="break-all">{t('landing.gallery.byAuthor', { author: item.author })}</Text>
          <HStack gap="1" flexShrink={0}>
            <HeartIcon boxSize="3.5" color="pink.300" />
            <Text>{t('landing.gallery.likes', { likes: formatNumber(item.likes, i18n.language) })}</Text>
          </HStack>
        </Flex>
      </Stack>
    </Box>
  );
}

export function GallerySection() {
  const { t } = useTranslation();
  return (
    <LandingSection id="gallery" title={t('landing.gallery.heading')} intro={t('landing.gallery.intro')}>
      <SimpleGrid as="ul" columns={{ base: 2, md: 3, lg: 4 }} gap={{ base: '3', md: '5' }} listStyleType="none" m="0" p="0">
        {SHOWCASE.map((item) => (
          <li key={item.key}>
            <ShowcaseCard item={item} />
          </li>
        ))}
      </SimpleGrid>
      <Flex justify="center" mt="10">
        <Button asChild variant="outline" colorPalette="purple" size="lg" rounded="full" px="8">
          <RouterLink to="/signup" data-testid="gallery-view-all">
            {t('landing.gallery.viewAll')}
            <ArrowRightIcon />
          </RouterLink>
        </Button>
      </Flex>
    </LandingSection>
  );
}
