import { Box, Button, Flex, Grid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CheckList, LandingSection } from './landing-section';
import { ArrowRightIcon, BookIcon } from '../../../components/icons/landing-icons';

const POINTS = ['branching', 'memory', 'genres'] as const;

/** A sample story page; the choices illustrate the game and are not controls. */
function StoryPreview() {
  const { t } = useTranslation();
  return (
    <Box
      as="figure"
      m="0"
      p={{ base: '6', md: '8' }}
      rounded="2xl"
      borderWidth="1px"
      borderColor="purple.800"
      bgGradient="to-br"
      gradientFrom="purple.950"
      gradientTo="bg"
      shadow="lg"
    >
      <Flex align="center" gap="2" color="purple.200" fontSize="sm" fontWeight="semibold" mb="3">
        <BookIcon boxSize="4" />
        <Text as="figcaption">{t('landing.storyGames.sampleTitle')}</Text>
      </Flex>
      <Text fontSize="lg" mb="5">
        {t('landing.storyGames.sampleText')}
      </Text>
      <Stack as="ul" gap="2" listStyleType="none" m="0" p="0">
        {(['choiceA', 'choiceB'] as const).map((choice, index) => (
          <Flex as="li" key={choice} gap="3" align="center" p="3" rounded="lg" borderWidth="1px" borderColor="border" bg="bg/60">
            <Flex
              boxSize="6"
              rounded="md"
              bg="purple.800"
              color="purple.100"
              fontSize="xs"
              fontWeight="bold"
              align="center"
              justify="center"
            >
              {String.fromCharCode(65 + index)}
            </Flex>
            <Text>{t(`landing.storyGames.${choice}`)}</Text>
          </Flex>
        ))}
      </Stack>
    </Box>
  );
}

export function StoryGamesSection() {
  const { t } = useTranslation();
  return (
    <LandingSection id="ai-story-games" align="start" title={t('landing.storyGames.heading')} intro={t('landing.storyGames.intro')}>
      <Grid templateColumns={{ base: '1fr', md: '1fr 1fr' }} gap={{ base: '10', md: '16' }} alignItems="center">
        <Stack gap="6">
          <CheckList color="purple.300" items={POINTS.map((point) => t(`landing.storyGames.points.${point}`))} />
          <Button asChild colorPalette="purple" alignSelf="flex-start" rounded="full" px="6">
            <RouterLink to="/signup">
              {t('landing.storyGames.cta')}
              <ArrowRightIcon />
            </RouterLink>
          </Button>
        </Stack>
        <StoryPreview />
      </Grid>
    </LandingSection>
  );
}
