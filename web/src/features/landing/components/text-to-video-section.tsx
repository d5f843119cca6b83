import { useTranslation } from 'react-i18next';
import { getBrandName } from '../../../lib/app-config';
import { ComingSoonBadge, LandingSection } from './landing-section';
import { AppLink } from '../../../components/app-link';
import {
  ArrowRightIcon,
  CloudIcon,
  EditIcon,
  FormatsIcon,
  MicIcon,
  MoveIcon,
  PeopleIcon,
  type LandingIcon,
} from '../../../components/icons/landing-icons';
import '../../../styles/kit.css';
import './text-to-video-section.css';

type VideoFeatureKey = 'multiCharacter' | 'camera' | 'voice' | 'editing' | 'formats' | 'storage';

/** Spec §1: the upcoming text-to-video features, in order. */
const VIDEO_FEATURES: readonly { key: VideoFeatureKey; icon: LandingIcon }[] = [
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
      <ul className="lp-video-features">
        {VIDEO_FEATURES.map(({ key, icon: FeatureIcon }) => (
          <li key={key} className="lp-video-feature" data-testid="video-feature">
            <div className="lp-video-feature-badge">
              <FeatureIcon className="lp-video-feature-icon" />
            </div>
            <div className="lp-video-feature-text">
              <h3 className="lp-heading lp-heading-md">{t(`landing.textToVideo.features.${key}.title`)}</h3>
              <p className="lp-video-feature-description">{t(`landing.textToVideo.features.${key}.description`)}</p>
            </div>
          </li>
        ))}
      </ul>
      <div className="lp-video-actions">
        <AppLink to="/signup" className="lp-btn lp-btn-solid lp-btn-lg lp-btn-pill lp-video-cta">
          {t('landing.textToVideo.cta')}
          <ArrowRightIcon />
        </AppLink>
      </div>
    </LandingSection>
  );
}
