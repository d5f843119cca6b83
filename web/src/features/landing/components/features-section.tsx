import { useTranslation } from 'react-i18next';
import '../../../styles/kit.css';
import './features-section.css';
import { registerInterest } from '../interest-feedback';
import { nameContainingLabel } from '../label-in-name';
import { LandingSection } from './landing-section';
import {
  BookIcon,
  CameraIcon,
  ChatBubbleIcon,
  PictureIcon,
  UserPlusIcon,
  VideoIcon,
  type LandingIcon,
} from '../../../components/icons/landing-icons';

type FeatureKey = 'selfAi' | 'chat' | 'imageGenerator' | 'characterCreator' | 'stories' | 'textToVideo';

/** The six feature cards (spec §1); `interest` is the label sent with the interest event. */
export const FEATURES: readonly { key: FeatureKey; interest: string; icon: LandingIcon }[] = [
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
      <ul className="lp-features-grid">
        {FEATURES.map(({ key, interest, icon: FeatureIcon }) => {
          const title = t(`landing.features.items.${key}.title`);
          return (
            <li key={key}>
              <div className="lp-card lp-features-card" data-testid="feature-card">
                <div className="lp-card-body lp-features-card-body">
                  <div className="lp-features-icon">
                    <FeatureIcon className="lp-features-icon-svg" />
                  </div>
                  <h3 className="lp-heading lp-heading-lg">{title}</h3>
                  <p className="lp-features-description">{t(`landing.features.items.${key}.description`)}</p>
                </div>
                <div className="lp-card-footer">
                  <button
                    type="button"
                    className="lp-btn lp-btn-outline-purple lp-btn-sm"
                    aria-label={nameContainingLabel(
                      t('landing.features.interested'),
                      t('landing.features.interestedIn', { feature: title }),
                      title,
                    )}
                    onClick={() => registerInterest('feature', interest)}
                  >
                    {t('landing.features.interested')}
                  </button>
                </div>
              </div>
            </li>
          );
        })}
      </ul>
    </LandingSection>
  );
}
