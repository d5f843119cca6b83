import { Box, Button, Card, Heading, SimpleGrid, Text } from '@chakra-ui/react';
import type { IconProps } from '@chakra-ui/react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { registerInterest } from '../interest-feedback';
import { nameContainingLabel } from '../label-in-name';
import { LandingSection } from './landing-section';
import { BookIcon, CameraIcon, ChatBubbleIcon, PictureIcon, UserPlusIcon, VideoIcon } from '../../../components/icons/landing-icons';

type FeatureKey = 'selfAi' | 'chat' | 'imageGenerator' | 'characterCreator' | 'stories' | 'textToVideo';

/** The six feature cards (spec §1); `interest` is the label sent with the interest event. */
export const FEATURES: readonly { key: FeatureKey; interest: string; icon: ComponentType<IconProps> }[] = [
  { key: 'selfAi', interest: 'self-ai', icon: CameraIcon },
  { key: 'chat', interest: 'ai-chat', icon: ChatBubbleIcon },
  { key: 'imageGenerator', interest: 'image-generator', icon: PictureIcon },
  { key: 'characterCreator', interest: 'character-creator', icon: UserPlusIcon },
  { key: 'stories', interest: 'interactive-stories', icon: BookIcon },
  { key: 'textToVideo', interest: 'text-to-video', icon: VideoIcon },
];

export function FeaturesSection() {
  const { t } = useTranslation();
  return (
    <LandingSection id="features" title={t('landing.features.heading')} intro={t('landing.features.intro')}>
      <SimpleGrid as="ul" columns={{ base: 1, sm: 2, lg: 3 }} gap="5" listStyleType="none" m="0" p="0">
        {FEATURES.map(({ key, interest, icon: FeatureIcon }) => {
          const title = t(`landing.features.items.${key}.title`);
          return (
            <li key={key}>
              <Card.Root
                variant="outline"
                h="full"
                bg="bg.subtle"
                transition="border-color 0.2s, transform 0.2s"
                _hover={{ borderColor: 'purple.600', transform: 'translateY(-2px)' }}
                data-testid="feature-card"
              >
                <Card.Body gap="3">
                  <Box
                    alignSelf="flex-start"
                    p="3"
                    rounded="xl"
                    bgGradient="to-br"
                    gradientFrom="purple.700"
                    gradientTo="pink.700"
                    color="white"
                  >
                    <FeatureIcon boxSize="6" />
                  </Box>
                  <Heading as="h3" size="lg">
                    {title}
                  </Heading>
                  <Text color="fg.muted">{t(`landing.features.items.${key}.description`)}</Text>
                </Card.Body>
                <Card.Footer>
                  <Button
                    variant="outline"
                    colorPalette="purple"
                    size="sm"
                    aria-label={nameContainingLabel(
                      t('landing.features.interested'),
                      t('landing.features.interestedIn', { feature: title }),
                      title,
                    )}
                    onClick={() => registerInterest('feature', interest)}
                  >
                    {t('landing.features.interested')}
                  </Button>
                </Card.Footer>
              </Card.Root>
            </li>
          );
        })}
      </SimpleGrid>
    </LandingSection>
  );
}
