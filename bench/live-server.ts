/**
 * A child process of bench/live.bench.ts; BENCH_ROLE says which part of the product it runs:
 * - `embedded`: the whole platform (in-memory PGlite, in-process bus) and a second gateway on the same bus that
 *   no client uses, built on a bus that counts every live message reaching it;
 * - `services`: identity, chat and media on DATABASE_URL + NATS_URL (distributed mode), without a gateway;
 * - `gateway`: one gateway on NATS_URL (distributed mode), counting the live messages reaching it.
 * It reports `{ type: 'ready', url, secondUrl? }` over IPC, then answers `stats` (memory, CPU, live messages
 * counted) and, where the identity service runs, `seed` (members and sessions written straight to its database).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createGateway, readGatewayConfig } from '@app/gateway';
import { type Bus, BusTransport, Infra, MemoryStorage, type RunningService, hashSessionToken, principalOf, startService } from '@app/kit';
import { SESSION_ENDED_SUBJECT } from '@app/schema';
import { type ChildRequest, type ProcessStats, type ReadyMessage, answerRequests, ownStats } from './live-children';

export interface SeededMember {
  id: string;
  token: string;
}

const SEED_BATCH = 500;

/** A bus whose live subscriptions count what they receive: what a gateway built on it is sent. */
function countingBus(bus: Bus, counts: NonNullable<ProcessStats['liveReceived']>): Bus {
  return new Proxy(bus, {
    get(target, property) {
      if (property === 'subscribeLive') {
        return (subject: string, handler: (data: unknown, subject: string) => void) =>
          target.subscribeLive(subject, (data, actual) => {
            if (actual === SESSION_ENDED_SUBJECT) {
              counts.broadcast++;
            } else {
              counts.routed++;
              if (counts.subjects.length < 10) counts.subjects.push(actual);
            }
            handler(data, actual);
          });
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Members and their sessions, written in the identity service's tables instead of registered: registration
 * hashes a password with scrypt, minutes of CPU for a thousand members on two cores. The session stores the
 * token's SHA-256, as sign-in does; the cookie is `sid=<token>`.
 */
async function seedMembers(identity: RunningService, count: number, balance: number): Promise<SeededMember[]> {
  const members = Array.from({ length: count }, () => ({ id: randomUUID(), token: randomBytes(32).toString('base64url') }));
  for (let start = 0; start < members.length; start += SEED_BATCH) {
    const batch = members.slice(start, start + SEED_BATCH);
    const ids = batch.map((member) => member.id);
    await identity.db.query(
      `INSERT INTO "identity"."users" ("id", "email", "password_hash", "date_of_birth", "terms_accepted_at", "token_balance")
       SELECT "id", 'live-' || "id" || '@example.com', 'seeded by bench/live.bench.ts (no password)', DATE '1990-01-01', now(), $2
       FROM unnest($1::uuid[]) AS "id"`,
      [ids, balance],
    );
    await identity.db.query(
      `INSERT INTO "identity"."sessions" ("user_id", "token_hash", "created_at", "last_seen_at", "expires_at")
       SELECT "user_id", "token_hash", now(), now(), now() + interval '30 days' FROM unnest($1::uuid[], $2::text[]) AS s("user_id", "token_hash")`,
      [ids, batch.map((member) => hashSessionToken(member.token))],
    );
  }
  return members;
}

function serve(identity: RunningService | null, counts?: ProcessStats['liveReceived']): void {
  answerRequests(async (request: ChildRequest) => {
    if (request.type === 'stats') return { ...ownStats(request), liveReceived: counts } satisfies ProcessStats;
    if (!identity) throw new Error('this process runs no identity service');
    return seedMembers(identity, request.members, request.balance);
  });
}

const newCounts = (): NonNullable<ProcessStats['liveReceived']> => ({ routed: 0, broadcast: 0, subjects: [] });

// The services are loaded only by the roles that run them, so a gateway process holds the gateway's code alone.
async function runEmbedded(): Promise<() => Promise<void>> {
  const { startEmbedded } = await import('@app/embedded');
  const platform = await startEmbedded({
    infra: { dataDir: `memory://live-bench-${randomUUID()}`, databaseUrl: null, natsUrl: null },
    gateway: { port: 0, host: '127.0.0.1' },
  });
  const counts = newCounts();
  const second = await createGateway({
    bus: countingBus(platform.bus, counts),
    config: { ...readGatewayConfig(process.env), port: 0, host: '127.0.0.1' },
    storage: new MemoryStorage(),
  });
  const { url: secondUrl } = await second.listen();
  serve(platform.services.find((service) => service.name === 'identity') ?? null, counts);
  process.send?.({ type: 'ready', url: platform.url, secondUrl } satisfies ReadyMessage);
  return async () => {
    await second.close();
    await platform.stop();
  };
}

async function runServices(): Promise<() => Promise<void>> {
  const infra = Infra.fromEnvironment();
  const transport = BusTransport.open(infra);
  const services: RunningService[] = [];
  const buses: Bus[] = [];
  const definitions = [
    (await import('@app/identity')).identityService,
    (await import('@app/chat')).chatService,
    (await import('@app/media')).mediaService,
  ];
  for (const definition of definitions) {
    const bus = await transport.connect(principalOf(definition));
    buses.push(bus);
    services.push(await startService(definition, bus, infra, process.env));
  }
  serve(services[0]!);
  process.send?.({ type: 'ready' } satisfies ReadyMessage);
  return async () => {
    for (const service of services.reverse()) await service.stop();
    for (const bus of buses) await bus.close();
    await transport.close();
  };
}

async function runGateway(): Promise<() => Promise<void>> {
  const infra = Infra.fromEnvironment();
  const transport = BusTransport.open(infra);
  const bus = await transport.connect('gateway');
  const counts = newCounts();
  const gateway = await createGateway({
    bus: countingBus(bus, counts),
    config: { ...readGatewayConfig(process.env), port: 0, host: '127.0.0.1' },
    storage: new MemoryStorage(),
  });
  const { url } = await gateway.listen();
  serve(null, counts);
  process.send?.({ type: 'ready', url } satisfies ReadyMessage);
  return async () => {
    await gateway.close();
    await bus.close();
    await transport.close();
  };
}

const ROLES: Record<string, () => Promise<() => Promise<void>>> = { embedded: runEmbedded, services: runServices, gateway: runGateway };

async function main(): Promise<void> {
  const role = ROLES[process.env.BENCH_ROLE ?? ''];
  if (!role) throw new Error(`BENCH_ROLE must be one of ${Object.keys(ROLES).join(', ')}, got "${process.env.BENCH_ROLE}"`);
  const stop = await role();
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    void stop()
      .catch((error: unknown) => console.error('stopping failed:', error))
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
