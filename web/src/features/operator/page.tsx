import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { LiveEventsPanel } from './components/live-events-panel';
import { ServicesPanel } from './components/services-panel';
import { PageHeader } from '../../components/page-header';

/**
 * Operator (admins only; member-routes.tsx shows others the not-found page, and the server refuses
 * them too): the service instances with their circuits and queues, and the event stream live.
 */
export default function OperatorPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="10">
      <PageHeader title={t('operator.title')} description={t('operator.description')} />
      <ServicesPanel />
      <LiveEventsPanel />
    </Stack>
  );
}
