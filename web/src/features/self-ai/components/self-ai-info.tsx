import { Alert, Badge, Box, Card, Flex, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ShieldIcon } from '../../../components/icons/icons';
import { FaceScanIcon, type LandingIcon, LockIcon, UploadIcon, WandIcon } from '../../../components/icons/landing-icons';

/** Spec §2: four feature cards; texts under `selfAi.features.<key>`. Face mapping and scenarios need a model that does not exist yet. */
const FEATURES: {
  key: 'secureUpload' | 'faceMapping' | 'customScenarios' | 'privateSecure';
  icon: LandingIcon;
  comingSoon: boolean;
}[] = [
  { key: 'secureUpload', icon: UploadIcon, comingSoon: false },
  { key: 'faceMapping', icon: FaceScanIcon, comingSoon: true },
  { key: 'customScenarios', icon: WandIcon, comingSoon: true },
  { key: 'privateSecure', icon: LockIcon, comingSoon: false },
];

/** Spec §2: the three steps of How It Works; texts under `selfAi.howItWorks.<key>`. */
const STEPS = ['upload', 'process', 'generate'] as const;

export function SelfAiFeatures() {
  const { t } = useTranslation();
  return (
    <Stack as="section" aria-labelledby="self-ai-features" gap="4">
      <Heading as="h2" size="lg" id="self-ai-features">
        {t('selfAi.features.heading')}
      </Heading>
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
        {FEATURES.map(({ key, icon: FeatureIcon, comingSoon }) => (
          <Card.Root key={key} variant="outline" data-testid="self-ai-feature">
            <Card.Body gap="3">
              <Flex justify="space-between" align="flex-start" gap="2">
                <Box p="2.5" rounded="lg" bg="purple.900" color="purple.200">
                  <Icon asChild boxSize="5">
                    <FeatureIcon />
                  </Icon>
                </Box>
                {comingSoon && (
                  <Badge colorPalette="purple" variant="subtle">
                    {t('common.comingSoon')}
                  </Badge>
                )}
              </Flex>
              <Heading as="h3" size="sm">
                {t(`selfAi.features.${key}.title`)}
              </Heading>
              <Text fontSize="sm" color="fg.muted">
                {t(`selfAi.features.${key}.text`)}
              </Text>
            </Card.Body>
          </Card.Root>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

export function SelfAiHowItWorks() {
  const { t } = useTranslation();
  return (
    <Stack as="section" aria-labelledby="self-ai-how" gap="4">
      <Heading as="h2" size="lg" id="self-ai-how">
        {t('selfAi.howItWorks.heading')}
      </Heading>
      <SimpleGrid as="ol" columns={{ base: 1, md: 3 }} gap="4" listStyleType="none" data-testid="self-ai-steps">
        {STEPS.map((step, index) => (
          <Flex as="li" key={step} gap="4" align="flex-start">
            <Flex
              flexShrink={0}
              boxSize="9"
              rounded="full"
              bg="purple.600"
              color="white"
              fontWeight="bold"
              align="center"
              justify="center"
              aria-hidden="true"
            >
              {index + 1}
            </Flex>
            <Stack gap="1">
              <Heading as="h3" size="sm">
                {t(`selfAi.howItWorks.${step}.title`)}
              </Heading>
              <Text fontSize="sm" color="fg.muted">
                {t(`selfAi.howItWorks.${step}.text`)}
              </Text>
            </Stack>
          </Flex>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

export function SelfAiPrivacyNote() {
  const { t } = useTranslation();
  return (
    <Alert.Root status="info" variant="subtle" colorPalette="purple" data-testid="self-ai-privacy">
      <Alert.Indicator>
        <ShieldIcon />
      </Alert.Indicator>
      <Alert.Content>
        <Alert.Title>{t('selfAi.privacy.title')}</Alert.Title>
        <Alert.Description>{t('selfAi.privacy.text')}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
