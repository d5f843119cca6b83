import { List } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import { ERROR_CODES } from '../api-facts';
import { CodeBlock, DevelopersSection, INLINE_CODE, Paragraph, ReferenceTable } from './developers-section';

const ERROR_EXAMPLE = `{
  "errors": [
    {
      "message": "Too many requests with this credential; please slow down.",
      "extensions": { "code": "RATE_LIMITED", "retryAfterSeconds": 12 }
    }
  ]
}`;

const EXTENSIONS = ['retryAfterSeconds', 'fieldErrors', 'policyCategory'] as const;

export function ErrorsSection() {
  const { t } = useTranslation();
  return (
    <DevelopersSection id="errors" title={t('developers.errors.title')}>
      <Paragraph>
        <Trans i18nKey="developers.errors.intro" values={{ list: 'errors', field: 'extensions.code' }} components={{ code: INLINE_CODE }} />
      </Paragraph>
      <Paragraph>{t('developers.errors.status')}</Paragraph>
      <CodeBlock code={ERROR_EXAMPLE} label={t('developers.errors.exampleLabel')} />
      <Paragraph>{t('developers.errors.extensionsIntro')}</Paragraph>
      <List.Root gap="2" ps="5">
        {EXTENSIONS.map((name) => (
          <List.Item key={name}>
            <Trans i18nKey={`developers.errors.extensions.${name}`} values={{ name }} components={{ code: INLINE_CODE }} />
          </List.Item>
        ))}
      </List.Root>
      <ReferenceTable
        caption={t('developers.errors.tableCaption')}
        headings={[t('developers.errors.code'), t('developers.errors.meaning')]}
        rows={ERROR_CODES.map((code) => ({ name: code, meaning: t(`developers.errors.codes.${code}`) }))}
        testId="developers-error-codes"
      />
    </DevelopersSection>
  );
}
