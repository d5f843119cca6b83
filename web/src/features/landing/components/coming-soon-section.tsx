import { Box, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconProps } from '@chakra-ui/react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { LandingSection } from './landing-section';
import { ChatBubbleIcon, LibraryIcon, PhoneIcon, SparklesIcon, UserPlusIcon, VideoIcon } from '../../../components/icons/landing-icons';

type ComingSoonKey = 'advancedImages' | 'interactiveChat' | 'customCharacters' | 'videoGeneration' | 'premiumLibrary' | 'mobileApp';

/** Spec §1 coming-soon list, in its order. */
const ITEMS: readonly { key: ComingSoonKey; icon: ComponentType<IconProps> }[] = [
  { key: 'advancedImages', icon: SparklesIcon },
  { key: 'interactiveChat', icon: ChatBubbleIcon },
  { key: 'customCharacters', icon: UserPlusIcon },
  { key: 'videoGeneration', icon: VideoIcon },
  { key: 'premiumLibrary', icon: LibraryIcon },
  { key: 'mobileApp', icon: PhoneIcon },
];

export function ComingSoonSection() {
  const { t } = useTranslation();
  return (
    <LandingSection id="coming-soon" tone="raised" title={t('landing.comingSoon.heading')} intro={t('landing.comingSoon.intro')}>
      <SimpleGrid as="ul" columns={{ base: 1, md: 2, lg: 3 }} gap="4" listStyleType="none" m="0" p="0">
        {ITEMS.map(({ key, icon: ItemIcon }) => (
          <Flex
            as="li"
            key={key}
            gap="4"
            p="5"
            rounded="xl"
            borderWidth="1px"
            borderColor="border.muted"
            bg="bg"
            data-testid="coming-soon-item"
          >
            <Box color="purple.300" pt="0.5">
              <ItemIcon boxSize="6" />
            </Box>
            <Stack gap="1">
              <Heading as="h3" size="md">
                {t(`landing.comingSoon.items.${key}.title`)}
              </Heading>
              <Text color="fg.muted" fontSize="sm">
                {t(`landing.comingSoon.items.${key}.description`)}
              </Text>
            </Stack>
          </Flex>
        ))}
      </SimpleGrid>
    </LandingSection>
  );
}
