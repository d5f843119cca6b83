import { Container, Grid, Stack } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import { AuthenticationSection, ScopesSection } from './components/access-sections';
import { GRAPHQL_PATH, REST_PATH } from './api-facts';
import { INLINE_CODE } from './components/developers-section';
import { ErrorsSection } from './components/errors-section';
import { ExamplesSection } from './components/examples-section';
import { ExplorerCard } from './components/explorer-card';
import { LimitsSection } from './components/limits-section';
import { PaginationSection } from './components/pagination-section';
import { SubscriptionsSection } from './components/subscriptions-section';
import { TableOfContents, useScrollToHash } from './components/table-of-contents';
import { PageHeader } from '../../components/page-header';
import { getBrandName } from '../../lib/app-config';

/**
 * The API documentation, for visitors and members alike (routes/app-routes.tsx puts it in either shell).
 * Routed only while API_DOCS_ENABLED is on.
 */
export default function DevelopersPage() {
  const { t } = useTranslation();
  useScrollToHash();
  return (
    <Container maxW="6xl" px="0" data-testid="developers-page">
      <PageHeader
        title={t('developers.title')}
        description={
          <Trans
            i18nKey="developers.intro"
            values={{ brand: getBrandName(), graphql: GRAPHQL_PATH, rest: REST_PATH }}
            components={{ code: INLINE_CODE }}
          />
        }
      />
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: '14rem minmax(0, 1fr)' }} gap={{ base: '8', lg: '12' }} alignItems="start">
        <TableOfContents />
        <Stack gap="12" maxW="80ch" minW="0">
          <ExplorerCard />
          <AuthenticationSection />
          <ScopesSection />
          <LimitsSection />
          <ErrorsSection />
          <PaginationSection />
          <SubscriptionsSection />
          <ExamplesSection />
        </Stack>
      </Grid>
    </Container>
  );
}
