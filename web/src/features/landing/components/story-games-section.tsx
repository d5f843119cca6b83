import { useTranslation } from 'react-i18next';
import { CheckList, LandingSection } from './landing-section';
import { AppLink } from '../../../components/app-link';
import { ArrowRightIcon, BookIcon } from '../../../components/icons/landing-icons';
import '../../../styles/kit.css';
import './story-games-section.css';

const POINTS = ['branching', 'memory', 'genres'] as const;

/** A sample story page; the choices illustrate the game and are not controls. */
function StoryPreview() {
  const { t } = useTranslation();
  return (
    <figure className="lp-story-preview lp-shadow-lg">
      <div className="lp-story-preview-caption">
        <BookIcon className="lp-story-preview-icon" />
        <figcaption>{t('landing.storyGames.sampleTitle')}</figcaption>
      </div>
      <p className="lp-story-preview-text">{t('landing.storyGames.sampleText')}</p>
      <ul className="lp-story-choices">
        {(['choiceA', 'choiceB'] as const).map((choice, index) => (
          <li key={choice} className="lp-story-choice">
            <div className="lp-story-choice-letter">{String.fromCharCode(65 + index)}</div>
            <p>{t(`landing.storyGames.${choice}`)}</p>
          </li>
        ))}
      </ul>
    </figure>
  );
}

export function StoryGamesSection() {
  const { t } = useTranslation();
  return (
    <LandingSection id="ai-story-games" align="start" title={t('landing.storyGames.heading')} intro={t('landing.storyGames.intro')}>
      <div className="lp-split">
        <div className="lp-split-pitch">
          <CheckList color="var(--lp-colors-purple-300)" items={POINTS.map((point) => t(`landing.storyGames.points.${point}`))} />
          <AppLink to="/signup" className="lp-btn lp-btn-solid lp-btn-md lp-btn-pill lp-split-cta">
            {t('landing.storyGames.cta')}
            <ArrowRightIcon />
          </AppLink>
        </div>
        <StoryPreview />
      </div>
    </LandingSection>
  );
}
