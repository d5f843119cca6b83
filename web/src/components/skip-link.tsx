import { useTranslation } from 'react-i18next';
import '../styles/kit.css';
import './skip-link.css';

export const MAIN_CONTENT_ID = 'main-content';

/** First focusable element: lets keyboard users jump past the navigation. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className="lp-skip-link">
      {t('common.skipToContent')}
    </a>
  );
}
