import { Badge, Button, Center, Flex, Heading, HStack, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { NetworkStatus } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { useTranslation } from 'react-i18next';
import type { CircuitState, OperatorServicesQuery } from '../../../gql/graphql';
import { useNow } from '../../../hooks/use-now';
import { getErrorCode } from '../../../lib/graphql-errors';
import { formatSince, groupByService, SERVICES_REFRESH_MS, shortId } from '../operator';
import { OperatorServicesDocument } from '../operations';

type Instance = OperatorServicesQuery['operatorServices'][number];

const CIRCUIT_LOOK = {
  CLOSED: { colorPalette: 'green', key: 'closed' },
  HALF_OPEN: { colorPalette: 'orange', key: 'halfOpen' },
  OPEN: { colorPalette: 'red', key: 'open' },
} as const satisfies Record<CircuitState, { colorPalette: string; key: string }>;

function Circuits({ circuits }: { circuits: Instance['circuits'] }) {
  const { t } = useTranslation();
  if (circuits.length === 0) return <Text color="fg.muted">{t('operator.services.none')}</Text>;
  return (
    <HStack gap="1" wrap="wrap">
      {circuits.map((circuit) => {
        const look = CIRCUIT_LOOK[circuit.state];
        return (
          <Badge key={circuit.name} colorPalette={look.colorPalette} variant="subtle" data-testid="circuit" data-state={circuit.state}>
            {t('operator.circuits.label', { name: circuit.name, state: t(`operator.circuits.${look.key}`) })}
          </Badge>
        );
      })}
    </HStack>
  );
}

function Queues({ queues }: { queues: Instance['queues'] }) {
  const { t } = useTranslation();
  if (queues.length === 0) return <Text color="fg.muted">{t('operator.services.none')}</Text>;
  return (
    <Stack as="ul" gap="1" listStyleType="none" m="0" p="0">
      {queues.map((queue) => (
        <HStack as="li" key={queue.name} gap="2" data-testid="queue">
          <Text wordBreak="break-all">{queue.name}</Text>
          <Badge variant="outline" fontVariantNumeric="tabular-nums">
            {queue.depth}
          </Badge>
        </HStack>
      ))}
    </Stack>
  );
}

function ServiceTable({ name, instances, now }: { name: string; instances: Instance[]; now: number }) {
  const { t, i18n } = useTranslation();
  const headingId = `operator-service-${name}`;
  return (
    <Stack gap="2" as="section" aria-labelledby={headingId} data-testid="service-group" data-service={name}>
      <HStack gap="2">
        <Heading as="h3" size="md" id={headingId}>
          {name}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {t('operator.services.instances', { count: instances.length })}
        </Text>
      </HStack>
      {/* Focusable, so a keyboard user can scroll the table sideways on a narrow screen. */}
      <Table.ScrollArea borderWidth="1px" borderColor="border.muted" rounded="md" tabIndex={0} role="region" aria-labelledby={headingId}>
        {/* Fixed widths line the services' tables up under one another. */}
        <Table.Root size="sm" tableLayout="fixed" minW="3xl">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w="12%">{t('operator.services.columns.instance')}</Table.ColumnHeader>
              <Table.ColumnHeader w="10%">{t('operator.services.columns.version')}</Table.ColumnHeader>
              <Table.ColumnHeader w="16%">{t('operator.services.columns.started')}</Table.ColumnHeader>
              <Table.ColumnHeader w="10%" textAlign="end">
                {t('operator.services.columns.endpoints')}
              </Table.ColumnHeader>
              <Table.ColumnHeader w="24%">{t('operator.services.columns.circuits')}</Table.ColumnHeader>
              <Table.ColumnHeader w="28%">{t('operator.services.columns.queues')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {instances.map((instance) => (
              <Table.Row key={instance.id} verticalAlign="top" data-testid="service-instance" data-instance-id={instance.id}>
                <Table.Cell fontFamily="mono" title={instance.id}>
                  {shortId(instance.id)}
                </Table.Cell>
                <Table.Cell>{instance.version}</Table.Cell>
                <Table.Cell>
                  <time dateTime={instance.startedAt}>{formatSince(instance.startedAt, now, i18n.language)}</time>
                </Table.Cell>
                <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                  {instance.endpoints}
                </Table.Cell>
                <Table.Cell>
                  <Circuits circuits={instance.circuits} />
                </Table.Cell>
                <Table.Cell>
                  <Queues queues={instance.queues} />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </Stack>
  );
}

function ServicesBody({ instances, now }: { instances: Instance[]; now: number }) {
  const { t } = useTranslation();
  const groups = groupByService(instances);
  if (groups.length === 0) {
    return (
      <Center borderWidth="1px" borderStyle="dashed" borderColor="border" rounded="lg" py="10" px="6" data-testid="operator-services-empty">
        <Text>{t('operator.services.empty')}</Text>
      </Center>
    );
  }
  return (
    <Stack gap="6" data-testid="operator-services">
      {groups.map((group) => (
        <ServiceTable key={group.name} name={group.name} instances={group.instances} now={now} />
      ))}
    </Stack>
  );
}

/** The instances that answer now, by service, asked again every SERVICES_REFRESH_MS while the tab is visible. */
export function ServicesPanel() {
  const { t } = useTranslation();
  const now = useNow(SERVICES_REFRESH_MS);
  const { data, previousData, error, networkStatus, refetch } = useQuery(OperatorServicesDocument, {
    // Not normalised: an instance id names a process, which in the embedded mode runs all three services.
    fetchPolicy: 'no-cache',
    pollInterval: SERVICES_REFRESH_MS,
    // A hidden tab has no one to show the answer to.
    skipPollAttempt: () => document.hidden,
    notifyOnNetworkStatusChange: true,
    errorPolicy: 'all',
  });
  // After a failed refresh, the last answer stays on screen, marked as such.
  const instances = (data ?? previousData)?.operatorServices;
  const code = getErrorCode(error);

  const body = () => {
    if (code === 'FORBIDDEN') return <Text role="alert">{t('operator.forbidden')}</Text>;
    if (instances) return <ServicesBody instances={instances} now={now} />;
    if (error) {
      return (
        <Stack align="flex-start" gap="2" role="alert">
          <Text>{t('operator.services.loadFailed')}</Text>
          <Button size="sm" variant="outline" onClick={() => void refetch().catch(() => undefined)}>
            {t('operator.services.retry')}
          </Button>
        </Stack>
      );
    }
    return <Skeleton h="40" rounded="lg" aria-hidden="true" />;
  };

  return (
    <Stack gap="4" as="section" aria-labelledby="operator-services-heading">
      <Flex gap="3" align="center" justify="space-between" wrap="wrap">
        <Stack gap="0">
          <Heading as="h2" size="lg" id="operator-services-heading">
            {t('operator.services.heading')}
          </Heading>
          <Text fontSize="sm" color="fg.muted">
            {t('operator.services.autoRefresh', { seconds: SERVICES_REFRESH_MS / 1000 })}
          </Text>
        </Stack>
        <Button
          size="sm"
          variant="outline"
          loading={networkStatus === NetworkStatus.refetch}
          onClick={() => void refetch().catch(() => undefined)}
        >
          {t('operator.services.refresh')}
        </Button>
      </Flex>
      {instances && error && code !== 'FORBIDDEN' && (
        <Text fontSize="sm" color="fg.error" role="alert" data-testid="operator-services-stale">
          {t('operator.services.refreshFailed')}
        </Text>
      )}
      {body()}
    </Stack>
  );
}
