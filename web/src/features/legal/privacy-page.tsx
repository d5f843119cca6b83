import { Button } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ArrowLeftIcon } from '../../components/icons/legal-icons';
import { LegalNotice, LegalParagraph } from './components/legal-text';
import { getBrandName } from '../../lib/app-config';
import { formatLegalDate, LegalText, useLegalSections } from './components/legal-document';
import { LegalPageLayout } from './components/legal-page-layout';

/** Days within which privacy requests are answered (spec §9). */
const PRIVACY_RESPONSE_DAYS = 30;

/** Spec §9: the policy is dated July 18, 2025. */
const LAST_UPDATED = '2025-07-18';

/** A section's anchor is its catalog key in kebab case (#information-we-collect), the same in every language. */
const kebabCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

export default function PrivacyPage() {
  const { t, i18n } = useTranslation();
  const values = { brand: getBrandName(), days: PRIVACY_RESPONSE_DAYS };
  const sections = useLegalSections('privacy', values, { anchor: kebabCase, isNumbered: false });
  return (
    <LegalPageLayout
      title={t('legal.privacy.title')}
      dateLine={
        <Trans
          i18nKey="legal.privacy.date"
          values={{ date: formatLegalDate(LAST_UPDATED, i18n.language) }}
          components={{ time: <time dateTime={LAST_UPDATED} /> }}
        />
      }
      intro={<p>{t('legal.privacy.intro', values)}</p>}
      notice={
        <LegalNotice title={t('legal.privacy.notice.title')}>
          <LegalParagraph>
            <LegalText i18nKey="legal.privacy.notice.text" values={values} />
          </LegalParagraph>
        </LegalNotice>
      }
      sections={sections}
      actions={
        <>
          <Button asChild colorPalette="purple">
            <RouterLink to="/tos">{t('legal.privacy.viewTerms')}</RouterLink>
          </Button>
          <Button asChild variant="outline">
            <RouterLink to="/">
              <ArrowLeftIcon />
              {t('legal.privacy.backToPlatform')}
            </RouterLink>
          </Button>
        </>
      }
    />
  );
}
