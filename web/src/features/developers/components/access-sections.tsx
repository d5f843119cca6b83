import { Link, List } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useAuth } from '../../../auth/auth-context';
import { ACCESS_TOKENS, TOKEN_SCOPES, TOKENS_PAGE_PATH } from '../api-facts';
import { CodeBlock, DevelopersSection, INLINE_CODE, Paragraph, ReferenceTable, SubHeading } from './developers-section';

const SCOPE_KEYS = { READ: 'read', CHAT: 'chat', GENERATE: 'generate' } as const;

const HTTP_HEADER = `Authorization: Bearer ${ACCESS_TOKENS.prefix}…`;
const WEBSOCKET_PARAMS = `connectionParams: { authorization: 'Bearer ${ACCESS_TOKENS.prefix}…' }`;

export function AuthenticationSection() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <DevelopersSection id="authentication" title={t('developers.authentication.title')}>
      <Paragraph>
        <Trans
          i18nKey="developers.authentication.intro"
          values={{ me: 'me', code: 'UNAUTHENTICATED' }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <SubHeading>{t('developers.authentication.sessionTitle')}</SubHeading>
      <Paragraph>{t('developers.authentication.session')}</Paragraph>
      <SubHeading>{t('developers.authentication.tokenTitle')}</SubHeading>
      <Paragraph>
        <Trans i18nKey="developers.authentication.token" values={{ mutation: 'createAccessToken' }} components={{ code: INLINE_CODE }} />
      </Paragraph>
      <Paragraph>{t('developers.authentication.http')}</Paragraph>
      <CodeBlock code={HTTP_HEADER} label={t('developers.authentication.httpLabel')} testId="developers-auth-http" />
      <Paragraph>{t('developers.authentication.webSocket')}</Paragraph>
      <CodeBlock code={WEBSOCKET_PARAMS} label={t('developers.authentication.webSocketLabel')} />
      <List.Root gap="2" ps="5">
        <List.Item>{t('developers.authentication.perMember', { value: ACCESS_TOKENS.perMember })}</List.Item>
        <List.Item>{t('developers.authentication.expiry', { min: ACCESS_TOKENS.minDays, max: ACCESS_TOKENS.maxDays })}</List.Item>
        <List.Item>{t('developers.authentication.revoke')}</List.Item>
      </List.Root>
      {user && (
        <Paragraph>
          <Link asChild color="purple.200" textDecoration="underline">
            <RouterLink to={TOKENS_PAGE_PATH}>{t('developers.authentication.manage')}</RouterLink>
          </Link>
        </Paragraph>
      )}
    </DevelopersSection>
  );
}

export function ScopesSection() {
  const { t } = useTranslation();
  return (
    <DevelopersSection id="scopes" title={t('developers.scopes.title')}>
      <Paragraph>
        <Trans i18nKey="developers.scopes.intro" values={{ code: 'FORBIDDEN' }} components={{ code: INLINE_CODE }} />
      </Paragraph>
      <ReferenceTable
        caption={t('developers.scopes.tableCaption')}
        headings={[t('developers.scopes.scope'), t('developers.scopes.allows')]}
        rows={TOKEN_SCOPES.map((scope) => ({ name: scope, meaning: t(`developers.scopes.${SCOPE_KEYS[scope]}`) }))}
        testId="developers-scopes"
      />
      <Paragraph>{t('developers.scopes.never')}</Paragraph>
    </DevelopersSection>
  );
}
