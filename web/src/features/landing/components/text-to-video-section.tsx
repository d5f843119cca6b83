import { Box, Button, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconProps } from '@chakra-ui/react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getBrandName } from '../../../lib/app-config';
import { ComingSoonBadge, LandingSection } from './landing-section';
import { ArrowRightIcon, CloudIcon, EditIcon, FormatsIcon, MicIcon, MoveIcon, PeopleIcon } from '../../../components/icons/landing-icons';

type VideoFeatureKey = 'multiCharacter' | 'camera' | 'voice' | 'editing' | 'formats' | 'storage';

/** Spec §1: the upcoming text-to-video features, in order. */
const VIDEO_FEATURES: readonly { key: VideoFeatureKey; icon: ComponentType<IconProps> }[] = [
  { key: 'multiCharacter', icon: PeopleIcon },
  { key: 'camera', icon: MoveIcon },
  { key: 'voice', icon: MicIcon },
  { key: 'editing', icon: EditIcon },
  { key: 'formats', icon: FormatsIcon },
  { key: 'storage', icon: CloudIcon },
];

export function TextToVideoSection() {
  const { t } = useTranslation();
  return (
    <LandingSection
      id="text-to-video"
      tone="raised"
      badge={<ComingSoonBadge>{t('common.comingSoon')}</ComingSoonBadge>}
      title={t('landing.textToVideo.heading')}
      intro={t('landing.textToVideo.intro', { brand: getBrandName() })}
    >
      <SimpleGrid as="ul" columns={{ base: 1, sm: 2, lg: 3 }} gap="4" listStyleType="none" m="0" p="0">
        {VIDEO_FEATURES.map(({ key, icon: FeatureIcon }) => (
          <Flex
            as="li"
            key={key}
            gap="4"
            p="5"
            rounded="xl"
            bg="bg"
            borderWidth="1px"
            borderColor="border.muted"
            data-testid="video-feature"
          >
            <Box p="2.5" rounded="lg" bg="purple.900" color="purple.200" alignSelf="flex-start">
              <FeatureIcon boxSize="5" />
            </Box>
            <Stack gap="1">
              <Heading as="h3" size="md">
                {t(`landing.textToVideo.features.${key}.title`)}
              </Heading>
              <Text fontSize="sm" color="fg.muted">
                {t(`landing.textToVideo.features.${key}.description`)}
              </Text>
            </Stack>
          </Flex>
        ))}
      </SimpleGrid>
      <Flex justify="center" mt="10">
        <Button asChild colorPalette="purple" size="lg" rounded="full" px="8">
          <RouterLink to="/signup">
            {t('landing.textToVideo.cta')}
            <ArrowRightIcon />
          </RouterLink>
        </Button>
      </Flex>
    </LandingSection>
  );
}
