import { Box, Button, Flex, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { registerInterest } from '../interest-feedback';
import { ComingSoonBadge, LandingSection } from './landing-section';
import { LockIcon, UploadIcon } from '../../../components/icons/landing-icons';

const STEPS = ['upload', 'learn', 'create'] as const;

/** Five photo slots: the self-AI editor takes 1 to 5 photos (spec §1). Purely decorative. */
function PhotoSlots() {
  const tints = [
    ['purple.700', 'pink.600'],
    ['purple.800', 'purple.500'],
    ['pink.800', 'orange.500'],
    ['blue.800', 'purple.600'],
  ];
  return (
    <Grid templateColumns="repeat(3, 1fr)" gap="3" aria-hidden="true" maxW="sm" mx="auto" w="full">
      {tints.map(([from, to], index) => (
        <Box
          key={index}
          aspectRatio="3 / 4"
          rounded="xl"
          bgGradient="to-br"
          gradientFrom={from}
          gradientTo={to}
          gridRow={index === 0 ? 'span 2' : undefined}
          gridColumn={index === 0 ? 'span 2' : undefined}
          position="relative"
          overflow="hidden"
        >
          <Box
            position="absolute"
            left="50%"
            top="28%"
            transform="translateX(-50%)"
            w="34%"
            aspectRatio="1"
            rounded="full"
            bg="whiteAlpha.400"
          />
          <Box
            position="absolute"
            left="50%"
            bottom="-12%"
            transform="translateX(-50%)"
            w="70%"
            h="38%"
            roundedTop="full"
            bg="whiteAlpha.400"
          />
        </Box>
      ))}
      <Flex
        aspectRatio="3 / 4"
        rounded="xl"
        borderWidth="2px"
        borderStyle="dashed"
        borderColor="purple.500"
        align="center"
        justify="center"
        color="purple.300"
      >
        <UploadIcon boxSize="6" />
      </Flex>
    </Grid>
  );
}

export function SelfAiSection() {
  const { t } = useTranslation();
  return (
    <LandingSection
      id="self-ai"
      tone="raised"
      align="start"
      badge={<ComingSoonBadge>{t('common.comingSoon')}</ComingSoonBadge>}
      title={t('landing.selfAi.heading')}
      intro={t('landing.selfAi.intro')}
    >
      <Grid templateColumns={{ base: '1fr', md: '1.1fr 1fr' }} gap={{ base: '10', md: '16' }} alignItems="center">
        <Stack gap="6">
          <Stack as="ol" gap="5" listStyleType="none" m="0" p="0">
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
                <Stack gap="0.5">
                  <Heading as="h3" size="md">
                    {t(`landing.selfAi.steps.${step}.title`)}
                  </Heading>
                  <Text color="fg.muted">{t(`landing.selfAi.steps.${step}.description`)}</Text>
                </Stack>
              </Flex>
            ))}
          </Stack>
          <Flex gap="3" align="flex-start" p="4" rounded="lg" bg="bg" borderWidth="1px" borderColor="border.muted">
            <LockIcon boxSize="5" color="green.300" mt="0.5" />
            <Text fontSize="sm" color="fg.muted">
              {t('landing.selfAi.privacy')}
            </Text>
          </Flex>
          <Button colorPalette="purple" alignSelf="flex-start" rounded="full" px="6" onClick={() => registerInterest('feature', 'self-ai')}>
            {t('landing.selfAi.notifyMe')}
          </Button>
        </Stack>
        <PhotoSlots />
      </Grid>
    </LandingSection>
  );
}
