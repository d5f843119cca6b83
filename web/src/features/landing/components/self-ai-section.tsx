import { useTranslation } from 'react-i18next';
import { LockIcon, UploadIcon } from '../../../components/icons/landing-icons';
import { registerInterest } from '../interest-feedback';
import { ComingSoonBadge, LandingSection } from './landing-section';
import '../../../styles/kit.css';
import './self-ai-section.css';

const STEPS = ['upload', 'learn', 'create'] as const;

/** Each sample photo's gradient is its class in self-ai-section.css; the first one is the large one. */
const PHOTO_TINTS = ['lp-self-ai-photo-1', 'lp-self-ai-photo-2', 'lp-self-ai-photo-3', 'lp-self-ai-photo-4'] as const;

/** Five photo slots: the self-AI editor takes 1 to 5 photos (spec §1). Purely decorative. */
function PhotoSlots() {
  return (
    <div className="lp-self-ai-photos" aria-hidden="true">
      {PHOTO_TINTS.map((tint) => (
        <div key={tint} className={`lp-self-ai-photo ${tint}`}>
          <div className="lp-self-ai-photo-head" />
          <div className="lp-self-ai-photo-body" />
        </div>
      ))}
      <div className="lp-self-ai-upload">
        <UploadIcon className="lp-self-ai-upload-icon" />
      </div>
    </div>
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
      <div className="lp-self-ai-layout">
        <div className="lp-self-ai-main">
          <ol className="lp-self-ai-steps">
            {STEPS.map((step, index) => (
              <li key={step} className="lp-self-ai-step">
                <div className="lp-self-ai-step-number" aria-hidden="true">
                  {index + 1}
                </div>
                <div className="lp-self-ai-step-text">
                  <h3 className="lp-heading lp-heading-md">{t(`landing.selfAi.steps.${step}.title`)}</h3>
                  <p className="lp-self-ai-muted">{t(`landing.selfAi.steps.${step}.description`)}</p>
                </div>
              </li>
            ))}
          </ol>
          <div className="lp-self-ai-privacy">
            <LockIcon className="lp-self-ai-privacy-icon" />
            <p className="lp-self-ai-privacy-text">{t('landing.selfAi.privacy')}</p>
          </div>
          <button
            type="button"
            className="lp-btn lp-btn-solid lp-btn-md lp-btn-pill lp-self-ai-notify"
            onClick={() => registerInterest('feature', 'self-ai')}
          >
            {t('landing.selfAi.notifyMe')}
          </button>
        </div>
        <PhotoSlots />
      </div>
    </LandingSection>
  );
}
