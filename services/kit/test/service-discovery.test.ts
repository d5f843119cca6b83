import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUS_PERMISSIONS, BUS_PRINCIPALS, type BusPrincipal, type EventEnvelope, identityEvents, mediaEvents } from '@app/schema';
import { type Bus, BusPermissionError, InProcessBus, NatsBus, renderNatsServerConfig } from '../src/bus';
import { type NatsSecurity } from '../src/config';
import { natsPasswordVariable } from '../src/env';
import { PrivateNatsServer, natsServerBinary } from './nats-server';
import { eventually } from './test-infra';

jest.setTimeout(60_000);

const VERSION = '1.4.2';
const PASSWORDS = Object.fromEntries(BUS_PRINCIPALS.map((principal) => [principal, `${principal}-discovery-secret`])) as Record<
  BusPrincipal,
  string
>;
const security: NatsSecurity = { passwords: PASSWORDS, tls: null, requireAuthentication: true };

interface Principals {
  as(principal: BusPrincipal): Promise<Bus>;
  close(): Promise<void>;
}

/** In-process: each principal's permission-checked view of one bus. NATS: a private server with the generated users, so what is refused is refused by the server. */
const transports: [string, () => Promise<Principals>][] = [
  [
    'the in-process bus',
    async () => {
      const root = InProcessBus.open({ serviceVersion: VERSION });
      return { as: async (principal) => root.as(principal), close: () => root.close() };
    },
  ],
];
if (natsServerBinary()) {
  transports.push([
    'NATS with a user per principal',
    async () => {
      const configFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nats-conf-')), 'nats.conf');
      fs.writeFileSync(configFile, renderNatsServerConfig());
      const env = Object.fromEntries(BUS_PRINCIPALS.map((principal) => [natsPasswordVariable(principal), PASSWORDS[principal]]));
      const server = await PrivateNatsServer.start({ configFile, env });
      const opened: Bus[] = [];
      return {
        as: async (principal) => {
          const bus = await NatsBus.connect(server.url(), `discovery-${principal}`, { principal, security, serviceVersion: VERSION });
          opened.push(bus);
          return bus;
        },
        close: async () => {
          for (const bus of opened) await bus.close();
          await server.stop();
        },
      };
    },
  ]);
} else {
  console.warn('Skipping service discovery on NATS: no nats-server binary (set NATS_SERVER_BIN).');
}

const deletion = () => ({ imageId: randomUUID(), userId: randomUUID(), wasPublic: false, likes: 0 });

/** What the operator screen shows: the service instances that are up, with their circuits and queues. */
describe.each(transports)('service discovery on %s', (_name, open) => {
  let principals: Principals;
  const buses = {} as Record<BusPrincipal, Bus>;
  let releaseHandler: () => void = () => undefined;

  beforeAll(async () => {
    principals = await open();
    for (const principal of BUS_PRINCIPALS) buses[principal] = await principals.as(principal);
    for (const service of ['identity', 'chat', 'media'] as const) {
      for (const rpc of BUS_PERMISSIONS[service].serves) await buses[service].serve(rpc, async () => ({}) as never);
    }
  });
  afterAll(async () => {
    releaseHandler();
    await principals.close();
  });

  it('lists identity, chat and media with their endpoints, the circuits and queues they report, and their consumers’ backlogs', async () => {
    buses.chat.reportStatus(() => ({ circuits: [{ name: 'chat-provider', state: 'open' }] }));
    buses.media.reportStatus(async () => ({ queues: [{ name: 'media.image-jobs.waiting', depth: 3 }] }));
    // A handler that has not finished holds its events back: the consumer's backlog counts them.
    const held = new Promise<void>((resolve) => (releaseHandler = resolve));
    const consumer = { subjects: [mediaEvents.imageDeleted.type], durableName: 'media-image-files', deliver: 'all' as const };
    await buses.media.consumeEvents(consumer, () => held);
    await buses.media.publishEvent(mediaEvents.imageDeleted, deletion(), null);
    await buses.media.publishEvent(mediaEvents.imageDeleted, deletion(), null);

    await eventually(async () => {
      const services = await buses.gateway.discoverServices(1_000);
      expect(services.map(({ name, version, endpoints }) => ({ name, version, endpoints }))).toEqual(
        (['chat', 'identity', 'media'] as const).map((name) => ({
          name,
          version: VERSION,
          endpoints: BUS_PERMISSIONS[name].serves.length,
        })),
      );
      for (const service of services) {
        expect(service.id).toMatch(/^[0-9a-f]{32}$/);
        expect(Date.now() - Date.parse(service.startedAt)).toBeLessThan(60_000);
      }
      const [chat, identity, media] = services;
      expect(chat!.circuits).toEqual([{ name: 'chat-provider', state: 'open' }]);
      expect(identity!.circuits).toEqual([]);
      expect(media!.queues).toEqual(
        expect.arrayContaining([
          { name: 'media.image-jobs.waiting', depth: 3 },
          { name: 'consumer.media-image-files', depth: 2 },
        ]),
      );
      expect(chat!.queues).toEqual([]);
    }, 10_000);
  });

  it('refuses discovery and the whole event stream to every principal but the gateway', async () => {
    for (const principal of ['identity', 'chat', 'media'] as const) {
      await expect(buses[principal].discoverServices()).rejects.toThrow(BusPermissionError);
      const all = { subjects: ['evt.>'], deliver: 'new' as const };
      await expect(buses[principal].consumeEvents(all, async () => undefined)).rejects.toThrow(BusPermissionError);
    }
  });

  it('lets the gateway follow every event from now on, whoever publishes it', async () => {
    const seen: EventEnvelope[] = [];
    const tail = await buses.gateway.consumeEvents({ subjects: ['evt.>'], deliver: 'new' }, async (event) => void seen.push(event));
    const change = { userId: randomUUID(), balance: 15, delta: 5, reason: 'Welcome bonus', occurredAt: new Date().toISOString() };
    await buses.identity.publishEvent(identityEvents.tokensChanged, change, null);
    await buses.media.publishEvent(mediaEvents.imageDeleted, deletion(), null);
    await eventually(() =>
      expect(seen.map((event) => event.type)).toEqual([identityEvents.tokensChanged.type, mediaEvents.imageDeleted.type]),
    );
    await tail.unsubscribe();
  });
});
