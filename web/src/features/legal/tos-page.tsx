import { Trans, useTranslation } from 'react-i18next';
import { LegalList, LegalNotice } from './components/legal-text';
import { getBrandName, getLegalJurisdiction } from '../../lib/app-config';
import { formatLegalDate, LegalText, useLegalSections } from './components/legal-document';
import { LegalPageLayout } from './components/legal-page-layout';

/** Free-tier monthly allowances (spec §9). */
const FREE_TIER = { images: 3, chatMessages: 10, characters: 2, stories: 2 } as const;

/** Spec §9: the Terms are effective September 1, 2025. */
const EFFECTIVE_DATE = '2025-09-01';

const NOTICE_ITEMS = ['i1', 'i2', 'i3'] as const;

export default function TosPage() {
  const { t, i18n } = useTranslation();
  const values = {
    brand: getBrandName(),
    jurisdiction: getLegalJurisdiction() ?? t('legal.tos.defaultJurisdiction'),
    ...FREE_TIER,
  };
  // The spec's anchors: #section-1 … #section-13.
  const sections = useLegalSections('tos', values, { anchor: (_key, index) => `section-${index + 1}`, isNumbered: true });
  return (
    <LegalPageLayout
      title={t('legal.tos.title')}
      dateLine={
        <Trans
          i18nKey="legal.tos.date"
          values={{ date: formatLegalDate(EFFECTIVE_DATE, i18n.language) }}
          components={{ time: <time dateTime={EFFECTIVE_DATE} /> }}
        />
      }
      intro={<p>{t('legal.tos.intro', values)}</p>}
      notice={
        <LegalNotice title={t('legal.tos.notice.title')}>
          <LegalList
            items={NOTICE_ITEMS.map((item) => (
              <LegalText key={item} i18nKey={`legal.tos.notice.items.${item}`} values={values} />
            ))}
          />
        </LegalNotice>
      }
      sections={sections}
    />
  );
}
