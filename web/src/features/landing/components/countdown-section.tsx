import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../../../styles/kit.css';
import './countdown-section.css';
import { AppLink } from '../../../components/app-link';
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
        <div className="lp-countdown-launched">
          <AppLink to="/signup" className="lp-btn lp-btn-solid lp-btn-lg lp-btn-pill lp-countdown-cta">
            {t('landing.countdown.launchedCta')}
            <ArrowRightIcon />
          </AppLink>
        </div>
      </LandingSection>
    );
  }

  return (
    <LandingSection id="countdown" title={t('landing.countdown.heading')} intro={t('landing.countdown.intro', { date })}>
      <div className="lp-countdown">
        <div role="timer" aria-label={t('landing.countdown.timerLabel')} className="lp-countdown-units" data-testid="countdown">
          {UNITS.map((unit) => (
            <div key={unit} className="lp-countdown-unit">
              <p className="lp-countdown-value" data-testid={`countdown-${unit}`}>
                {unit === 'days' ? countdown.days : padUnit(countdown[unit])}
              </p>
              <p className="lp-countdown-unit-label">{t(`landing.countdown.${unit}`)}</p>
            </div>
          ))}
        </div>
        <div className="lp-countdown-date">
          <CalendarIcon className="lp-countdown-date-icon" />
          <time dateTime={launchDate.toISOString()}>{date}</time>
        </div>
      </div>
    </LandingSection>
  );
}
