import { BUS_PERMISSIONS, type BusPrincipal, EVENT_STREAM, EVENT_SUBJECTS } from '@app/schema';
import { DISCOVERY_SUBJECT } from './bus';

/** The subjects one NATS user may publish to and subscribe to, as nats-server's `permissions` block takes them. */
export interface NatsUserPermissions {
  publish: string[];
  subscribe: string[];
  /** Lets the user answer requests it received (RPC replies and `nats micro` answers), and nothing else on inboxes. */
  allowResponses: boolean;
}

const JS_API = '$JS.API';

/** Replies to a principal come to inboxes only it may read, so no one else sees session tokens in login replies. */
export const inboxPrefixOf = (principal: BusPrincipal) => `_INBOX.${principal}`;

/** nats-server 2.9 takes one filter subject per consumer; a consumer of several event types filters the whole stream. */
export const consumerFilter = (subjects: readonly string[]) => (subjects.length === 1 ? subjects[0]! : EVENT_SUBJECTS);

/**
 * Turns a principal's row of BUS_PERMISSIONS into NATS subject permissions: its RPCs, events and live
 * subjects, its own inbox, the JetStream API calls of its own consumers, and service discovery (answering it, and for
 * operators' principal, asking it).
 */
export function natsPermissionsOf(principal: BusPrincipal): NatsUserPermissions {
  const grant = BUS_PERMISSIONS[principal];
  const served = grant.serves.map((rpc) => rpc.subject);
  const publish = [
    ...grant.requests.map((rpc) => rpc.subject),
    ...grant.publishesEvents.map((event) => event.type),
    ...grant.publishesLive,
    ...streamApi(),
    ...Object.entries(grant.durableConsumers).flatMap(([name, events]) =>
      durableConsumerApi(
        name,
        events.map((event) => event.type),
      ),
    ),
    ...grant.tailsEvents.flatMap((event) => tailConsumerApi(event.type)),
    ...(grant.tailsAllEvents ? tailConsumerApi(EVENT_SUBJECTS) : []),
    // Replies to discovery come to its own inbox, which it may already read.
    ...(grant.discoversServices ? [DISCOVERY_SUBJECT] : []),
  ];
  const subscribe = [`${inboxPrefixOf(principal)}.>`, ...served, ...grant.subscribesLive, ...discoverySubjects(served)];
  return { publish: unique(publish), subscribe: unique(subscribe), allowResponses: served.length > 0 };
}

/** Every process checks the event stream at start and creates it if it is missing, so start order does not matter. */
// UPDATE lets the process that starts with new EVENTS_MAX_* limits apply them to the stream.
const streamApi = () => [
  `${JS_API}.INFO`,
  `${JS_API}.STREAM.INFO.${EVENT_STREAM}`,
  `${JS_API}.STREAM.CREATE.${EVENT_STREAM}`,
  `${JS_API}.STREAM.UPDATE.${EVENT_STREAM}`,
];

/** A durable consumer is created, checked, pulled from and acknowledged by name: only its owner may. */
function durableConsumerApi(name: string, types: string[]): string[] {
  return [
    `${JS_API}.CONSUMER.CREATE.${EVENT_STREAM}.${name}.${consumerFilter(types)}`,
    `${JS_API}.CONSUMER.INFO.${EVENT_STREAM}.${name}`,
    `${JS_API}.CONSUMER.MSG.NEXT.${EVENT_STREAM}.${name}`,
    `$JS.ACK.${EVENT_STREAM}.${name}.>`,
  ];
}

/** A tail is an ordered consumer with a fresh name per instance (and per restart), created only on its one filter (an event type, or `evt.>`). */
function tailConsumerApi(type: string): string[] {
  return [
    `${JS_API}.CONSUMER.CREATE.${EVENT_STREAM}.*.${type}`,
    `${JS_API}.CONSUMER.INFO.${EVENT_STREAM}.*`,
    `${JS_API}.CONSUMER.MSG.NEXT.${EVENT_STREAM}.*`,
    `${JS_API}.CONSUMER.DELETE.${EVENT_STREAM}.*`,
  ];
}

/** `nats micro ls|info|stats` asks `$SRV.<verb>[.<service>[.<id>]]` (services/kit/src/bus/nats-micro.ts). */
function discoverySubjects(served: string[]): string[] {
  const services = unique(served.map((subject) => subject.split('.')[1]!));
  if (services.length === 0) return [];
  return ['$SRV.*', ...services.flatMap((service) => [`$SRV.*.${service}`, `$SRV.*.${service}.*`])];
}

const unique = (values: string[]) => [...new Set(values)];
