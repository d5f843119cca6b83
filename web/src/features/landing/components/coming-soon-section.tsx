import { useTranslation } from 'react-i18next';
import '../../../styles/kit.css';
import './coming-soon-section.css';
import { LandingSection } from './landing-section';
import {
  ChatBubbleIcon,
  LibraryIcon,
  PhoneIcon,
  SparklesIcon,
  UserPlusIcon,
  VideoIcon,
  type LandingIcon,
} from '../../../components/icons/landing-icons';

type ComingSoonKey = 'advancedImages' | 'interactiveChat' | 'customCharacters' | 'videoGeneration' | 'premiumLibrary' | 'mobileApp';

/** Spec §1 coming-soon list, in its order. */
const ITEMS: readonly { key: ComingSoonKey; icon: LandingIcon }[] = [
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
      <ul className="lp-soon-grid">
        {ITEMS.map(({ key, icon: ItemIcon }) => (
          <li key={key} className="lp-soon-item" data-testid="coming-soon-item">
            <div className="lp-soon-icon">
              <ItemIcon className="lp-soon-icon-svg" />
            </div>
            <div className="lp-soon-text">
              <h3 className="lp-heading lp-heading-md">{t(`landing.comingSoon.items.${key}.title`)}</h3>
              <p className="lp-soon-description">{t(`landing.comingSoon.items.${key}.description`)}</p>
            </div>
          </li>
        ))}
      </ul>
    </LandingSection>
  );
}
