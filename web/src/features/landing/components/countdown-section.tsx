import { Button, Flex, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { getBrandName, getLaunchDate } from '../../../lib/app-config';
import { getCountdown, padUnit, type Countdown } from '../countdown';
import { formatLaunchDate } from '../format';
import { LandingSection } from './landing-section';
import { ArrowRightIcon, CalendarIcon } from '../../../components/icons/landing-icons';

/** The countdown to `target`, re-read every second until it reaches zero. */
function useCountdown(target: Date): Countdown {
  const [now, setNow] = useState(() => Date.now());
  const countdown = getCountdown(target, now);
  useEffect(() => {
    if (countdown.launched) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [countdown.launched]);
  return countdown;
}

const UNITS = ['days', 'hours', 'minutes', 'seconds'] as const;

/** Spec §1: countdown to the official launch in days, hours, minutes and seconds; launched state after. */
export function CountdownSection() {
  const { t, i18n } = useTranslation();
  const launchDate = useMemo(() => getLaunchDate(), []);
  const countdown = useCountdown(launchDate);
  const date = formatLaunchDate(launchDate, i18n.language);

  if (countdown.launched) {
    return (
      <LandingSection
        id="countdown"
        title={t('landing.countdown.launchedHeading')}
        intro={t('landing.countdown.launchedText', { brand: getBrandName() })}
        headingTestId="countdown-launched"
      >
        <Flex justify="center">
          <Button asChild colorPalette="purple" size="lg" rounded="full" px="8">
            <RouterLink to="/signup">
              {t('landing.countdown.launchedCta')}
              <ArrowRightIcon />
            </RouterLink>
          </Button>
        </Flex>
      </LandingSection>
    );
  }

  return (
    <LandingSection id="countdown" title={t('landing.countdown.heading')} intro={t('landing.countdown.intro', { date })}>
      <Stack align="center" gap="6">
        <SimpleGrid
          role="timer"
          aria-label={t('landing.countdown.timerLabel')}
          columns={4}
          gap={{ base: '2', sm: '4' }}
          w="full"
          maxW="2xl"
          data-testid="countdown"
        >
          {UNITS.map((unit) => (
            <Stack
              key={unit}
              gap="1"
              align="center"
              py={{ base: '4', md: '6' }}
              rounded="2xl"
              borderWidth="1px"
              borderColor="purple.800"
              bgGradient="to-b"
              gradientFrom="purple.950"
              gradientTo="bg"
            >
              <Text
                fontSize={{ base: '3xl', sm: '4xl', md: '6xl' }}
                fontWeight="bold"
                lineHeight="1"
                fontVariantNumeric="tabular-nums"
                data-testid={`countdown-${unit}`}
              >
                {unit === 'days' ? countdown.days : padUnit(countdown[unit])}
              </Text>
              <Text fontSize={{ base: 'xs', sm: 'sm' }} color="fg.muted" textTransform="uppercase" letterSpacing="wider">
                {t(`landing.countdown.${unit}`)}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
        <Flex align="center" gap="2" color="fg.muted" fontSize="sm">
          <CalendarIcon boxSize="4" />
          <time dateTime={launchDate.toISOString()}>{date}</time>
        </Flex>
      </Stack>
    </LandingSection>
  );
}
