import { Trans, useTranslation } from 'react-i18next';
import { graphqlWebSocketUrl, WEBSOCKET_LIMITS } from '../api-facts';
import { DevelopersSection, INLINE_CODE, Paragraph, ReferenceTable } from './developers-section';

const SUBSCRIPTIONS = [
  ['conversationUpdates(conversationId)', 'conversationUpdates'],
  ['generationUpdates', 'generationUpdates'],
  ['tokenBalanceChanged', 'tokenBalanceChanged'],
] as const;

export function SubscriptionsSection() {
  const { t } = useTranslation();
  return (
    <DevelopersSection id="subscriptions" title={t('developers.subscriptions.title')}>
      <Paragraph>
        <Trans
          i18nKey="developers.subscriptions.intro"
          values={{ protocol: 'graphql-transport-ws', library: 'graphql-ws', url: graphqlWebSocketUrl(window.location) }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <Paragraph>
        <Trans
          i18nKey="developers.subscriptions.authentication"
          values={{ params: 'connectionParams' }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <ReferenceTable
        caption={t('developers.subscriptions.tableCaption')}
        headings={[t('developers.subscriptions.subscription'), t('developers.subscriptions.delivers')]}
        rows={SUBSCRIPTIONS.map(([name, key]) => ({ name, meaning: t(`developers.subscriptions.fields.${key}`) }))}
        testId="developers-subscriptions"
      />
      <Paragraph>
        <Trans
          i18nKey="developers.subscriptions.subscribeFirst"
          values={{ mutation: 'sendMessage', subscription: 'conversationUpdates', delta: 'DELTA', message: 'MESSAGE' }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <Paragraph>{t('developers.subscriptions.closes', { code: WEBSOCKET_LIMITS.sessionEndedCloseCode })}</Paragraph>
    </DevelopersSection>
  );
}
