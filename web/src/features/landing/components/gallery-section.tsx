import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../../components/app-link';
import { ArrowRightIcon, HeartIcon } from '../../../components/icons/landing-icons';
import { formatNumber } from '../format';
import { LandingSection } from './landing-section';
import '../../../styles/kit.css';
import './gallery-section.css';

type ShowcaseKey =
  | 'violetDusk'
  | 'auroraLake'
  | 'neonSkyline'
  | 'desertGlow'
  | 'oceanWhisper'
  | 'mistyForest'
  | 'cosmicDrift'
  | 'silkWaves';

export interface ShowcaseItem {
  key: ShowcaseKey;
  /** Served from web/public/showcase: the images ship with the product. */
  image: string;
  /** Author label as shown (a handle, not translated). */
  author: string;
  likes: number;
  /** The class (gallery-section.css) painting the placeholder behind the image, shown while it loads or if it fails. */
  tint: string;
}

/** Spec §1, §9: eight static showcase cards (title, author label, like count, image). */
export const SHOWCASE: readonly ShowcaseItem[] = [
  { key: 'violetDusk', image: '/showcase/violet-dusk.svg', author: '@nightowl', likes: 2431, tint: 'lp-gallery-tint-violet-dusk' },
  { key: 'auroraLake', image: '/showcase/aurora-lake.svg', author: '@borealis', likes: 1984, tint: 'lp-gallery-tint-aurora-lake' },
  { key: 'neonSkyline', image: '/showcase/neon-skyline.svg', author: '@synthwave', likes: 3120, tint: 'lp-gallery-tint-neon-skyline' },
  { key: 'desertGlow', image: '/showcase/desert-glow.svg', author: '@dunewalker', likes: 1275, tint: 'lp-gallery-tint-desert-glow' },
  { key: 'oceanWhisper', image: '/showcase/ocean-whisper.svg', author: '@tidecaller', likes: 2867, tint: 'lp-gallery-tint-ocean-whisper' },
  { key: 'mistyForest', image: '/showcase/misty-forest.svg', author: '@mossheart', likes: 1590, tint: 'lp-gallery-tint-misty-forest' },
  { key: 'cosmicDrift', image: '/showcase/cosmic-drift.svg', author: '@stargazer', likes: 4012, tint: 'lp-gallery-tint-cosmic-drift' },
  { key: 'silkWaves', image: '/showcase/silk-waves.svg', author: '@velvetlines', likes: 2208, tint: 'lp-gallery-tint-silk-waves' },
];

export const SHOWCASE_IMAGE_WIDTH = 480;
export const SHOWCASE_IMAGE_HEIGHT = 600;

function ShowcaseCard({ item }: { item: ShowcaseItem }) {
  const { t, i18n } = useTranslation();
  // Spec §2: an image that fails to load is hidden (the tinted frame stays, so the grid keeps its shape).
  const [failed, setFailed] = useState(false);
  const title = t(`landing.gallery.items.${item.key}.title`);
  return (
    <figure className="lp-gallery-card" data-testid="showcase-card">
      <div className={`lp-gallery-frame ${item.tint}`}>
        <img
          className="lp-gallery-image"
          src={item.image}
          alt={t(`landing.gallery.items.${item.key}.alt`)}
          width={SHOWCASE_IMAGE_WIDTH}
          height={SHOWCASE_IMAGE_HEIGHT}
          loading="lazy"
          decoding="async"
          hidden={failed}
          onError={() => setFailed(true)}
          data-testid="showcase-image"
        />
      </div>
      <figcaption className="lp-gallery-caption">
        <h3 className="lp-heading lp-heading-md">{title}</h3>
        <div className="lp-gallery-meta">
          <p className="lp-gallery-author">{t('landing.gallery.byAuthor', { author: item.author })}</p>
          <div className="lp-gallery-likes">
            <HeartIcon className="lp-gallery-likes-icon" />
            <p>{t('landing.gallery.likes', { likes: formatNumber(item.likes, i18n.language) })}</p>
          </div>
        </div>
      </figcaption>
    </figure>
  );
}

export function GallerySection() {
  const { t } = useTranslation();
  return (
    <LandingSection id="gallery" title={t('landing.gallery.heading')} intro={t('landing.gallery.intro')}>
      <ul className="lp-gallery-grid">
        {SHOWCASE.map((item) => (
          <li key={item.key}>
            <ShowcaseCard item={item} />
          </li>
        ))}
      </ul>
      <div className="lp-gallery-actions">
        <AppLink
          to="/signup"
          className="lp-btn lp-btn-outline-purple lp-btn-lg lp-btn-pill lp-gallery-view-all"
          data-testid="gallery-view-all"
        >
          {t('landing.gallery.viewAll')}
          <ArrowRightIcon />
        </AppLink>
      </div>
    </LandingSection>
  );
}
