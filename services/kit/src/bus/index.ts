export * from './bus';
export { DEFAULT_EVENT_RETENTION, type EventRetention, eventsEnvironment, readEventRetention } from './event-retention';
export { type EventLogStats } from './event-log';
export { InProcessBus, type InProcessBusOptions } from './in-process-bus';
export { NatsBus, type NatsBusOptions } from './nats-bus';
export { type NatsConnectOptions } from './nats-connection';
export { type NatsUserPermissions, inboxPrefixOf, natsPermissionsOf } from './nats-permissions';
export {
  NATS_OPERATOR_PASSWORD_VARIABLE,
  type NatsServerConfigOptions,
  type NatsServerTls,
  renderNatsServerConfig,
} from './nats-server-config';
export { type BusOperation, BusPermissionError, ScopedBus } from './scoped-bus';
export { type UnstorableText, describeUnstorableText, findUnstorableText, toStorableText } from './rpc-wire';
