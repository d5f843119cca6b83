import { List } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import { EXECUTION_TIMEOUT_SECONDS, GRAPHQL_PATH, QUERY_LIMITS, RATE_LIMITS, WEBSOCKET_LIMITS } from '../api-facts';
import { DevelopersSection, INLINE_CODE, Paragraph, ReferenceTable, SubHeading } from './developers-section';

const RATE_LIMIT_HEADERS = [
  ['RateLimit-Limit', 'limit'],
  ['RateLimit-Remaining', 'remaining'],
  ['RateLimit-Reset', 'reset'],
  ['RateLimit-Policy', 'policy'],
] as const;

const QUERY_LIMIT_KEYS = ['maxDepth', 'maxAliases', 'maxCost', 'maxTokens', 'maxDirectives'] as const;

export function LimitsSection() {
  const { t, i18n } = useTranslation();
  // Not the landing page's formatter: sharing it would split it into a chunk of its own, one more request for the landing page.
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  return (
    <DevelopersSection id="limits" title={t('developers.limits.title')}>
      <Paragraph>
        <Trans
          i18nKey="developers.limits.intro"
          values={{ path: GRAPHQL_PATH, seconds: number(RATE_LIMITS.windowSeconds) }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <List.Root gap="2" ps="5">
        <List.Item>{t('developers.limits.perAddress', { value: number(RATE_LIMITS.perAddress) })}</List.Item>
        <List.Item>{t('developers.limits.perCredential', { value: number(RATE_LIMITS.perCredential) })}</List.Item>
      </List.Root>
      <Paragraph>{t('developers.limits.headersIntro')}</Paragraph>
      <ReferenceTable
        caption={t('developers.limits.headersCaption')}
        headings={[t('developers.limits.header'), t('developers.limits.meaning')]}
        rows={RATE_LIMIT_HEADERS.map(([name, key]) => ({
          name,
          meaning: t(`developers.limits.headers.${key}`, { example: `${RATE_LIMITS.perCredential};w=${RATE_LIMITS.windowSeconds}` }),
        }))}
        testId="developers-rate-limit-headers"
      />
      <Paragraph>
        <Trans
          i18nKey="developers.limits.refused"
          values={{ status: '429', header: 'Retry-After', code: 'RATE_LIMITED', extension: 'retryAfterSeconds' }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <Paragraph>{t('developers.limits.configurable')}</Paragraph>

      <SubHeading>{t('developers.limits.queryTitle')}</SubHeading>
      <Paragraph>
        <Trans i18nKey="developers.limits.queryIntro" values={{ code: 'QUERY_TOO_COMPLEX' }} components={{ code: INLINE_CODE }} />
      </Paragraph>
      <List.Root gap="2" ps="5" data-testid="developers-query-limits">
        {QUERY_LIMIT_KEYS.map((key) => (
          <List.Item key={key}>{t(`developers.limits.query.${key}`, { value: number(QUERY_LIMITS[key]) })}</List.Item>
        ))}
      </List.Root>
      <Paragraph>{t('developers.limits.introspection')}</Paragraph>
      <Paragraph>
        <Trans
          i18nKey="developers.limits.timeout"
          values={{ seconds: number(EXECUTION_TIMEOUT_SECONDS), code: 'TIMEOUT' }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>

      <SubHeading>{t('developers.limits.webSocketTitle')}</SubHeading>
      <Paragraph>
        {t('developers.limits.webSocket', {
          operations: number(WEBSOCKET_LIMITS.operationsPerSocket),
          sockets: number(WEBSOCKET_LIMITS.socketsPerMember),
          closeCode: WEBSOCKET_LIMITS.tooManyCloseCode,
        })}
      </Paragraph>
    </DevelopersSection>
  );
}
