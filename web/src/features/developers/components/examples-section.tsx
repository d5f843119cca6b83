import { Trans, useTranslation } from 'react-i18next';
import { curlMutationExample, curlQueryExample, webSocketClientExample } from '../api-examples';
import { SAMPLE_CLIENT_PATH } from '../api-facts';
import { CodeBlock, DevelopersSection, INLINE_CODE, Paragraph, SubHeading } from './developers-section';

export function ExamplesSection() {
  const { t } = useTranslation();
  const origin = window.location.origin;
  return (
    <DevelopersSection id="examples" title={t('developers.examples.title')}>
      <SubHeading>{t('developers.examples.curlTitle')}</SubHeading>
      <Paragraph>{t('developers.examples.curlQuery')}</Paragraph>
      <CodeBlock code={curlQueryExample(origin)} label={t('developers.examples.curlQueryLabel')} testId="developers-example-curl-query" />
      <Paragraph>
        <Trans i18nKey="developers.examples.curlMutation" values={{ scope: 'CHAT' }} components={{ code: INLINE_CODE }} />
      </Paragraph>
      <CodeBlock
        code={curlMutationExample(origin)}
        label={t('developers.examples.curlMutationLabel')}
        testId="developers-example-curl-mutation"
      />
      <SubHeading>{t('developers.examples.webSocketTitle')}</SubHeading>
      <Paragraph>
        <Trans
          i18nKey="developers.examples.webSocket"
          values={{ install: 'npm install graphql-ws ws', read: 'READ', chat: 'CHAT' }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <CodeBlock
        code={webSocketClientExample(origin)}
        label={t('developers.examples.webSocketLabel')}
        testId="developers-example-graphql-ws"
      />
      <Paragraph>
        <Trans i18nKey="developers.examples.sampleClient" values={{ path: SAMPLE_CLIENT_PATH }} components={{ code: INLINE_CODE }} />
      </Paragraph>
    </DevelopersSection>
  );
}
