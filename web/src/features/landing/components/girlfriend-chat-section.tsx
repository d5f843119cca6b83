import { Badge, Box, Button, Flex, Grid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CheckList, LandingSection } from './landing-section';
import { ArrowRightIcon } from '../../../components/icons/landing-icons';

const POINTS = ['memory', 'personality', 'private'] as const;

const MESSAGES = [
  { key: 'messageOne', from: 'companion' },
  { key: 'messageTwo', from: 'visitor' },
  { key: 'messageThree', from: 'companion' },
] as const;

/** A sample conversation, shown as an illustration. */
function ChatPreview() {
  const { t } = useTranslation();
  const name = t('landing.girlfriendChat.sampleName');
  return (
    <Box
      as="figure"
      m="0"
      rounded="2xl"
      borderWidth="1px"
      borderColor="border.muted"
      bg="bg.subtle"
      overflow="hidden"
      shadow="lg"
      aria-label={t('landing.girlfriendChat.conversationLabel')}
    >
      <Flex align="center" gap="3" px="5" py="4" borderBottomWidth="1px" borderColor="border.muted">
        <Flex
          boxSize="10"
          rounded="full"
          bgGradient="to-br"
          gradientFrom="pink.500"
          gradientTo="purple.600"
          color="white"
          fontWeight="bold"
          align="center"
          justify="center"
          aria-hidden="true"
        >
          {name.charAt(0)}
        </Flex>
        <Text fontWeight="semibold" flex="1">
          {name}
        </Text>
        <Badge colorPalette="green" variant="subtle">
          {t('landing.girlfriendChat.sampleStatus')}
        </Badge>
      </Flex>
      <Stack as="ol" gap="3" p="5" listStyleType="none" m="0">
        {MESSAGES.map((message) => (
          <Flex as="li" key={message.key} justify={message.from === 'visitor' ? 'flex-end' : 'flex-start'}>
            <Text
              maxW="80%"
              px="4"
              py="2.5"
              rounded="2xl"
              roundedBottomLeft={message.from === 'companion' ? 'sm' : undefined}
              roundedBottomRight={message.from === 'visitor' ? 'sm' : undefined}
              bg={message.from === 'visitor' ? 'purple.700' : 'bg.muted'}
              color={message.from === 'visitor' ? 'white' : 'fg'}
            >
              {t(`landing.girlfriendChat.${message.key}`)}
            </Text>
          </Flex>
        ))}
      </Stack>
    </Box>
  );
}

export function GirlfriendChatSection() {
  const { t } = useTranslation();
  return (
    <LandingSection
      id="ai-girlfriend-chat"
      tone="raised"
      align="start"
      title={t('landing.girlfriendChat.heading')}
      intro={t('landing.girlfriendChat.intro')}
    >
      <Grid templateColumns={{ base: '1fr', md: '1fr 1fr' }} gap={{ base: '10', md: '16' }} alignItems="center">
        <ChatPreview />
        <Stack gap="6">
          <CheckList color="pink.300" items={POINTS.map((point) => t(`landing.girlfriendChat.points.${point}`))} />
          <Button asChild colorPalette="purple" alignSelf="flex-start" rounded="full" px="6">
            <RouterLink to="/signup">
              {t('landing.girlfriendChat.cta')}
              <ArrowRightIcon />
            </RouterLink>
          </Button>
        </Stack>
      </Grid>
    </LandingSection>
  );
}
