/**
 * `npm run bench:live`: live updates fanned out to 10,000 graphql-ws sockets on one gateway (1,000 members × 10
 * sockets, each socket subscribed to `tokenBalanceChanged` and its member's `conversationUpdates`), while members
 * send chat messages at a steady rate; each send debits a token (a balance change) and streams a demo reply
 * (typing on, a delta per word, typing off) to all ten sockets of its member. Figures:
 * - delivery latency p50/p99: balance changes from their `occurredAt` (identity's clock at the debit, ms
 *   resolution) to receipt; typing on from the start of the `sendMessage` request to receipt (so it includes the
 *   send's own work: session, debit, storing both messages); the new reply's message from its `createdAt` (the
 *   transaction that stores it) to receipt, which is the chat fan-out without the rest of the send. Aim: p99 ≤ 100 ms
 *   on 2 cores;
 * - gateway RSS per 1,000 sockets: the gateway process's RSS once the sockets are subscribed, minus before (each
 *   read after a full GC; the JS heap likewise), and its longest event-loop stall while connecting and sending;
 * - live messages received by a second gateway on the same bus with no subscribers. Aim: none.
 * Baseline, in the same run and on the same sockets: a bare `ws` fan-out server (bench/live-bare-server.ts) in
 * its own process, sending the same frames in the same order at the same pace with no GraphQL, bus or
 * database. It is what two cores cost to push these frames to these clients, so the ratios show what the
 * platform adds at this scale; a 1-socket baseline would mostly measure an idle database instead.
 *
 * Members and sessions are seeded straight into identity's tables (registration's scrypt would take minutes),
 * conversations are created through GraphQL. Clients run in this process, servers in child processes
 * (bench/live-server.ts), so the gateway's RSS and CPU are its own. Embedded mode (PGlite + in-process bus):
 * one process holds the platform and the second gateway, so its RSS includes the services. Distributed mode
 * (PostgreSQL + NATS, when DATABASE_URL and NATS_URL are set or BENCH_DISTRIBUTED=1; fresh database): services,
 * gateway and second gateway are three processes; skipped when another identity service answers on that NATS.
 *
 * Sends are open-loop (a fixed schedule, whatever the answers), so an overloaded server shows as latency and as
 * refused sends (503 when it sheds load), not as a slower bench.
 *
 * Settings: BENCH_MEMBERS (1000), BENCH_SOCKETS_PER_MEMBER (10), BENCH_SENDS_PER_SECOND (10),
 * BENCH_SENDS_PER_MEMBER (1; at most 9, the free plan's 10 chat messages a month less the warm-up),
 * BENCH_CHUNK_DELAY_MS (35, the demo responder's pace), BENCH_CONNECT_CONCURRENCY (100), BENCH_WARMUP_SENDS (20),
 * BENCH_KEEP_LOGS=1 (keep the servers' logs), BENCH_SERVER_NODE_ARGS (extra node flags for the servers, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Client } from 'pg';
import { DemoChatProvider } from '../services/chat/src/providers/demo.provider';
import { Child, type ProcessStats, removeLogs, stopAllChildren } from './live-children';
import { type FleetMember, LiveRecorder, SocketFleet, sendAtRate } from './live-fleet';
import type { SeededMember } from './live-server';

function intSetting(name: string, fallback: number, minimum: number, maximum = Infinity): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    throw new Error(`${name} must be an integer from ${minimum} to ${maximum}, got "${raw}"`);
  }
  return value;
}

const MEMBERS = intSetting('BENCH_MEMBERS', 1000, 1);
const SOCKETS_PER_MEMBER = intSetting('BENCH_SOCKETS_PER_MEMBER', 10, 1);
const SENDS_PER_SECOND = intSetting('BENCH_SENDS_PER_SECOND', 10, 1);
// The free plan allows 10 chat messages a month; the warm-up uses one.
const SENDS_PER_MEMBER = intSetting('BENCH_SENDS_PER_MEMBER', 1, 1, 9);
const CHUNK_DELAY_MS = intSetting('BENCH_CHUNK_DELAY_MS', 35, 0);
const CONNECT_CONCURRENCY = intSetting('BENCH_CONNECT_CONCURRENCY', 100, 1);
const WARMUP_SENDS = Math.min(MEMBERS, intSetting('BENCH_WARMUP_SENDS', 20, 0));
const AIM_P99_MS = 100;
const BALANCE = 100;
const CONTENT = 'Tell me about the lighthouse keeper and the storm tonight';
const sendMessageBody = (conversationId: string) =>
  JSON.stringify({
    query: `mutation($id: ID!) { sendMessage(conversationId: $id, content: "${CONTENT}") { userMessage { id } } }`,
    variables: { id: conversationId },
  });
/** The bench stops waiting for replies when no frame has arrived for this long. */
const QUIET_AFTER_MS = 30_000;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

/** The limits a single client address holding 10,000 sockets would hit, lifted; the demo responder at the bench's pace. */
const PLATFORM_ENV: NodeJS.ProcessEnv = {
  LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  MAX_CONNECTIONS_PER_ADDRESS: '0',
  WS_MAX_SOCKETS_PER_MEMBER: String(SOCKETS_PER_MEMBER),
  MAX_IN_FLIGHT: '4096',
  CHAT_SENDS_PER_MINUTE: '60',
  CHAT_DEMO_CHUNK_DELAY_MS: String(CHUNK_DELAY_MS),
  CHAT_API_BASE_URL: undefined,
};

// ---------------------------------------------------------------------------------------------------------------
// Figures

interface PhaseResult {
  target: string;
  sockets: number;
  connectSeconds: number;
  retries: number;
  closedByServer: number;
  /** The server process before the sockets, once they are subscribed, and after the sends (each after a full GC). */
  before: ProcessStats;
  connected: ProcessStats;
  after: ProcessStats;
  tokenLatencies: number[];
  typingLatencies: number[];
  replyLatencies: number[];
  sendLatencies: number[];
  counts: LiveRecorder['counts'];
  /** Subscription errors while connecting, and samples of any error frame. */
  connectErrors: number;
  errorSamples: string[];
  /** Members whose sends were answered and whose sockets received no balance change at all. */
  membersLeftOut: number;
  sends: number;
  sendFailures: string[];
  /** From the last send's answer to the last frame received, in s; null when frames were still missing at the end. */
  drainSeconds: number | null;
  secondGateway?: ProcessStats['liveReceived'];
}

function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(1)}x` : 'n/a');
const perThousand = (phase: PhaseResult, key: 'rss' | 'heapUsed') => ((phase.connected[key] - phase.before[key]) * 1000) / phase.sockets;

// ---------------------------------------------------------------------------------------------------------------
// One phase: open the sockets, warm up, send at a steady rate, collect

interface Target {
  label: string;
  url: string;
  /** The process whose memory is measured. */
  server: Child;
  members: FleetMember[];
  /** Issues one member's send; rejects with a reason when it was refused. */
  send(member: FleetMember): Promise<void>;
  secondGateway?(): Promise<ProcessStats['liveReceived']>;
}

/** Waits until the server has spent under 10% of a core for a second: the subscriptions are in place. */
async function waitForQuiet(server: Child, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let previous = (await server.stats()).cpuMs;
  let quietSamples = 0;
  while (Date.now() < deadline && quietSamples < 2) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { cpuMs } = await server.stats();
    quietSamples = cpuMs - previous < 50 ? quietSamples + 1 : 0;
    previous = cpuMs;
  }
}

/** Resolves when every socket got `expected` typing-offs, or no frame arrived for QUIET_AFTER_MS. */
async function waitForReplies(recorder: LiveRecorder, expected: number): Promise<void> {
  while (recorder.counts.typingOff < expected && performance.now() - recorder.lastFrameAt < QUIET_AFTER_MS) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function shuffled<T>(values: T[]): T[] {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** Issues the target's sends, noting when each started (for typing latency), how long it took, and who was answered. */
class Sender {
  latencies: number[] = [];
  readonly answered = new Set<number>();

  constructor(
    private readonly target: Target,
    private readonly recorder: LiveRecorder,
  ) {}

  readonly send = async (index: number): Promise<void> => {
    this.recorder.sendStarted(index);
    const started = performance.now();
    await this.target.send(this.target.members[index]!);
    this.latencies.push(performance.now() - started);
    this.answered.add(index);
  };

  reset(): void {
    this.latencies = [];
    this.answered.clear();
  }
}

/** Sends from the first members and waits for their replies, then forgets them: the figures start warm. */
async function warmUp(target: Target, sender: Sender, recorder: LiveRecorder): Promise<void> {
  const warmup = target.members.slice(0, WARMUP_SENDS).map((member) => member.index);
  await sendAtRate(warmup, SENDS_PER_SECOND, sender.send);
  await waitForReplies(recorder, warmup.length * SOCKETS_PER_MEMBER);
  recorder.reset();
  sender.reset();
}

async function runPhase(target: Target): Promise<PhaseResult> {
  const recorder = new LiveRecorder();
  const fleet = new SocketFleet(target.url, recorder);
  const sender = new Sender(target, recorder);
  const before = await target.server.stats(true);
  console.log(`  ${target.label}: opening ${target.members.length * SOCKETS_PER_MEMBER} sockets...`);
  const connectStarted = performance.now();
  await fleet.open(target.members, SOCKETS_PER_MEMBER, CONNECT_CONCURRENCY);
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  await waitForQuiet(target.server);
  const connected = await target.server.stats(true);
  await warmUp(target, sender, recorder);

  const order = Array.from({ length: SENDS_PER_MEMBER }, () => shuffled(target.members.map((member) => member.index))).flat();
  console.log(`  ${target.label}: ${fleet.size} sockets open; ${order.length} sends at ${SENDS_PER_SECOND}/s...`);
  const sendFailures = await sendAtRate(order, SENDS_PER_SECOND, sender.send);
  const sendsEnded = performance.now();
  const expected = (order.length - sendFailures.length) * SOCKETS_PER_MEMBER;
  await waitForReplies(recorder, expected);
  const result: PhaseResult = {
    target: target.label,
    sockets: fleet.size,
    connectSeconds,
    retries: fleet.retries,
    closedByServer: fleet.closedByServer,
    before,
    connected,
    after: await target.server.stats(true),
    tokenLatencies: recorder.tokenLatencies,
    typingLatencies: recorder.typingLatencies,
    replyLatencies: recorder.replyLatencies,
    sendLatencies: sender.latencies,
    counts: { ...recorder.counts },
    connectErrors: recorder.earlierErrors,
    errorSamples: recorder.errorSamples,
    membersLeftOut: [...sender.answered].filter((member) => !recorder.tokensByMember.has(member)).length,
    sends: order.length,
    sendFailures,
    drainSeconds: recorder.counts.typingOff >= expected ? Math.max(0, recorder.lastFrameAt - sendsEnded) / 1000 : null,
    secondGateway: await target.secondGateway?.(),
  };
  await fleet.close();
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Targets: the bare baseline and the platform

/** The words of the demo reply to CONTENT, sent by the baseline as the platform's demo responder streams them. */
async function demoReplyWords(): Promise<string[]> {
  const words: string[] = [];
  const stream = new DemoChatProvider(0).stream({ messages: [{ role: 'user', content: CONTENT }] });
  for (let step = await stream.next(); !step.done; step = await stream.next()) words.push(step.value.text);
  return words;
}

async function runBaseline(): Promise<PhaseResult> {
  const server = new Child('bare-ws-baseline', 'bench/live-bare-server.ts', {
    BENCH_REPLY_WORDS: JSON.stringify(await demoReplyWords()),
    BENCH_CHUNK_DELAY_MS: String(CHUNK_DELAY_MS),
    BENCH_BALANCE: String(BALANCE),
  });
  const { url } = await server.ready();
  const members = Array.from({ length: MEMBERS }, (_, index) => ({ index, cookie: `sid=${index}`, conversationId: 'bare' }));
  try {
    return await runPhase({
      label: 'baseline: bare ws fan-out',
      url: url!,
      server,
      members,
      send: async (member) => {
        const response = await fetch(`${url}/send/${member.index}`, { method: 'POST' });
        if (!response.ok) throw new Error(`bare send answered ${response.status}`);
        await response.arrayBuffer();
      },
    });
  } finally {
    await server.stop();
  }
}

/** One GraphQL request; rejects with the error code, or the HTTP status when the gateway shed it (503) or failed. */
async function graphql(url: string, cookie: string, body: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body });
  const text = await response.text();
  let result: { data?: Record<string, unknown>; errors?: { message: string; extensions?: { code?: string } }[]; code?: string };
  try {
    result = JSON.parse(text) as typeof result;
  } catch {
    throw new Error(`HTTP ${response.status}, ${text ? 'not JSON' : 'empty body'}`);
  }
  if (result.errors?.length) throw new Error(result.errors[0]!.extensions?.code ?? result.errors[0]!.message);
  if (!response.ok || !result.data) throw new Error(`HTTP ${response.status} ${result.code ?? ''}`.trim());
  return result.data;
}

/** Seeds the members (identity's tables) and gives each a conversation (through GraphQL, 8 at a time). */
async function prepareMembers(identity: Child, gatewayUrl: string): Promise<FleetMember[]> {
  const seeded = await identity.request<SeededMember[]>({ type: 'seed', members: MEMBERS, balance: BALANCE });
  const members: FleetMember[] = [];
  const queue = seeded.map((member, index) => ({ member, index }));
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const cookie = `sid=${next.member.token}`;
      const data = await graphql(
        gatewayUrl,
        cookie,
        JSON.stringify({ query: 'mutation { createConversation(title: "Live bench") { id } }' }),
      );
      members.push({ index: next.index, cookie, conversationId: (data.createConversation as { id: string }).id });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return members.sort((a, b) => a.index - b.index);
}

async function runPlatform(label: string, gateway: Child, identity: Child, second: Child, url: string): Promise<PhaseResult> {
  const members = await prepareMembers(identity, url);
  return runPhase({
    label,
    url,
    server: gateway,
    members,
    send: async (member) => void (await graphql(url, member.cookie, sendMessageBody(member.conversationId))),
    secondGateway: async () => (await second.stats()).liveReceived,
  });
}

async function embeddedMode(): Promise<PhaseResult[]> {
  console.log('\n## embedded (PGlite + in-process bus)');
  const baseline = await runBaseline();
  const platform = new Child('embedded-platform', 'bench/live-server.ts', { ...PLATFORM_ENV, BENCH_ROLE: 'embedded' });
  try {
    const { url } = await platform.ready();
    return [baseline, await runPlatform('platform: gateway + services (one process)', platform, platform, platform, url!)];
  } finally {
    await platform.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Distributed mode

function distributedSettings(): { databaseUrl: string; natsUrl: string } | string {
  const flag = process.env.BENCH_DISTRIBUTED;
  if (flag === '0') return 'skipped (BENCH_DISTRIBUTED=0)';
  const databaseUrl = process.env.DATABASE_URL || (flag === '1' ? DEFAULT_DATABASE_URL : '');
  const natsUrl = process.env.NATS_URL || (flag === '1' ? DEFAULT_NATS_URL : '');
  if (databaseUrl && natsUrl) return { databaseUrl, natsUrl };
  return 'skipped: set DATABASE_URL and NATS_URL, or BENCH_DISTRIBUTED=1';
}

/** Whether some identity service already answers on this NATS: its queue group would take some of our calls. */
async function otherIdentityAnswers(natsUrl: string): Promise<boolean> {
  const [{ connect }, { identityRpc }] = await Promise.all([import('@nats-io/transport-node'), import('@app/schema')]);
  const nc = await connect({ servers: natsUrl.split(','), name: 'live-bench-probe' });
  try {
    await nc.request(identityRpc.resolveSession.subject, JSON.stringify({ payload: { sessionToken: 'live-bench-probe' }, meta: {} }), {
      timeout: 1000,
    });
    return true;
  } catch {
    return false;
  } finally {
    await nc.close();
  }
}

/** Drops the bench's database; set while one exists, so Ctrl-C drops it too. */
let dropDatabase: (() => Promise<void>) | null = null;

async function withFreshDatabase<T>(adminUrl: string, run: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_live_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  dropDatabase = async () => {
    dropDatabase = null;
    await stopAllChildren();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  };
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await run(url.toString());
  } finally {
    await dropDatabase?.();
  }
}

async function distributedMode(settings: { databaseUrl: string; natsUrl: string }): Promise<PhaseResult[]> {
  console.log(`\n## distributed (PostgreSQL + NATS at ${settings.natsUrl})`);
  const baseline = await runBaseline();
  return withFreshDatabase(settings.databaseUrl, async (databaseUrl) => {
    const infra = { DATA_DIR: `memory://live-bench-${randomUUID()}`, NATS_URL: settings.natsUrl };
    const services = new Child('services', 'bench/live-server.ts', {
      ...PLATFORM_ENV,
      ...infra,
      DATABASE_URL: databaseUrl,
      BENCH_ROLE: 'services',
    });
    const gatewayEnv = { ...PLATFORM_ENV, ...infra, DATABASE_URL: undefined, BENCH_ROLE: 'gateway' };
    try {
      await services.ready();
      const gateway = new Child('gateway', 'bench/live-server.ts', gatewayEnv);
      const second = new Child('second-gateway', 'bench/live-server.ts', gatewayEnv);
      const [{ url }] = await Promise.all([gateway.ready(), second.ready()]);
      return [baseline, await runPlatform('platform: gateway process', gateway, services, second, url!)];
    } finally {
      await stopAllChildren();
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const p50 = (values: number[]) => percentile(values, 0.5);
const p99 = (values: number[]) => percentile(values, 0.99);
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

function phaseLines(phase: PhaseResult): string[] {
  const expected = (phase.sends - phase.sendFailures.length) * SOCKETS_PER_MEMBER;
  const { counts } = phase;
  const lines = [
    `${phase.target}: ${phase.sockets} sockets subscribed in ${phase.connectSeconds.toFixed(1)} s (${phase.retries} retries, ` +
      `${phase.closedByServer} closed by the server); ${phase.sends} sends, ${phase.sendFailures.length} refused`,
    `  balance changes  p50 ${ms(p50(phase.tokenLatencies))}  p99 ${ms(p99(phase.tokenLatencies))}  (${counts.token} of ${expected} delivered)`,
    `  typing on        p50 ${ms(p50(phase.typingLatencies))}  p99 ${ms(p99(phase.typingLatencies))}  (${counts.typingOn} of ${expected}; ` +
      `typing off ${counts.typingOff}, deltas ${counts.delta}, errors ${counts.errors})`,
    `  new reply posted p50 ${ms(p50(phase.replyLatencies))}  p99 ${ms(p99(phase.replyLatencies))}  (${phase.replyLatencies.length} of ${expected}; from its createdAt)`,
    `  send answered    p50 ${ms(p50(phase.sendLatencies))}  p99 ${ms(p99(phase.sendLatencies))}`,
    `  RSS ${mb(phase.before.rss)} → ${mb(phase.connected.rss)} subscribed → ${mb(phase.after.rss)} after the sends: ` +
      `${mb(perThousand(phase, 'rss'))} per 1,000 sockets (JS heap ${mb(perThousand(phase, 'heapUsed'))})`,
    `  longest event-loop stall of the server: ${ms(phase.connected.loopDelayMaxMs)} while connecting, ` +
      `${ms(phase.after.loopDelayMaxMs)} during the sends`,
    phase.drainSeconds === null
      ? `  replies still incomplete after ${QUIET_AFTER_MS / 1000} s without a frame`
      : `  last reply frame ${phase.drainSeconds.toFixed(1)} s after the last send was answered`,
  ];
  if (phase.membersLeftOut > 0) lines.push(`  members whose sockets received none of their balance changes: ${phase.membersLeftOut}`);
  if (phase.connectErrors > 0) lines.push(`  subscriptions refused while connecting: ${phase.connectErrors}`);
  if (phase.errorSamples.length) lines.push(`  error frames, e.g.: ${phase.errorSamples.join(' | ')}`);
  if (phase.sendFailures.length) lines.push(`  refused sends: ${summarize(phase.sendFailures)}`);
  return lines;
}

function comparisonLines(baseline: PhaseResult, platform: PhaseResult): string[] {
  const second = platform.secondGateway;
  const [balance99, typing99, reply99] = [p99(platform.tokenLatencies), p99(platform.typingLatencies), p99(platform.replyLatencies)];
  return [
    `platform / baseline: balance p50 ${ratio(p50(platform.tokenLatencies), p50(baseline.tokenLatencies))}, ` +
      `p99 ${ratio(balance99, p99(baseline.tokenLatencies))}; ` +
      `typing p50 ${ratio(p50(platform.typingLatencies), p50(baseline.typingLatencies))}, ` +
      `p99 ${ratio(typing99, p99(baseline.typingLatencies))}; ` +
      `RSS per 1,000 sockets ${ratio(perThousand(platform, 'rss'), perThousand(baseline, 'rss'))}`,
    `aim p99 ≤ ${AIM_P99_MS} ms: balance changes ${verdict(balance99 <= AIM_P99_MS)} (${ms(balance99)}), ` +
      `new reply posted ${verdict(reply99 <= AIM_P99_MS)} (${ms(reply99)}), ` +
      `typing from the start of the send ${verdict(typing99 <= AIM_P99_MS)} (${ms(typing99)})`,
    `second gateway, no subscribers: ${second?.routed ?? '?'} routed live messages received ` +
      `(aim: none) ${verdict(second?.routed === 0)}; ${second?.broadcast ?? '?'} sign-out notices (sent to every gateway)` +
      (second?.subjects.length ? `; e.g. ${second.subjects.join(', ')}` : ''),
  ];
}

function printMode(mode: string, [baseline, platform]: PhaseResult[]): void {
  console.log([`\n### ${mode}`, ...phaseLines(baseline!), ...phaseLines(platform!), ...comparisonLines(baseline!, platform!)].join('\n'));
}

function summarize(failures: string[]): string {
  const counts = new Map<string, number>();
  for (const failure of failures) counts.set(failure, (counts.get(failure) ?? 0) + 1);
  return [...counts].map(([reason, count]) => `${count} × ${reason}`).join(', ');
}

/** NOT_FOUND or UNAUTHENTICATED for seeded members: another service on a shared NATS answered some of the calls. */
function warnIfSharedNats(platform: PhaseResult, natsUrl: string): void {
  if (![...platform.sendFailures, ...platform.errorSamples].some((text) => /NOT_FOUND|UNAUTHENTICATED/.test(text))) return;
  console.log(
    `note: NOT_FOUND and UNAUTHENTICATED for seeded members mean another identity or chat service on ${natsUrl} ` +
      'answered some calls (a test run started meanwhile?); a private NATS (`nats-server -p 4333 -js`) avoids it.',
  );
}

async function main(): Promise<void> {
  console.log(
    `live fan-out: ${MEMBERS} members × ${SOCKETS_PER_MEMBER} sockets, ${SENDS_PER_MEMBER} send(s) per member at ${SENDS_PER_SECOND}/s, ` +
      `demo reply every ${CHUNK_DELAY_MS} ms per word; Node ${process.version}, ${os.cpus().length} CPUs`,
  );
  if (MEMBERS / SENDS_PER_SECOND < 3 && SENDS_PER_MEMBER > 1) {
    console.warn('note: a member sends again before its reply ends (members / rate < 3 s); those sends are refused as busy');
  }
  printMode('embedded (PGlite + in-process bus)', await embeddedMode());
  const settings = distributedSettings();
  if (typeof settings === 'string') return console.log(`\ndistributed mode ${settings}`);
  if (await otherIdentityAnswers(settings.natsUrl)) {
    return console.log(
      `\ndistributed mode skipped: another identity service answers on ${settings.natsUrl} (its queue group would take some ` +
        'of the gateway calls). Point NATS_URL at a private server, e.g. `nats-server -p 4333 -js` and NATS_URL=nats://127.0.0.1:4333.',
    );
  }
  const distributed = await distributedMode(settings);
  printMode('distributed (PostgreSQL + NATS)', distributed);
  warnIfSharedNats(distributed[1]!, settings.natsUrl);
}

let failed = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the bench's servers...`);
    void (dropDatabase?.() ?? stopAllChildren()).finally(() => {
      removeLogs(true);
      process.exit(130);
    });
  });
}
main()
  .catch((error: unknown) => {
    failed = true;
    console.error('\nbench failed:', error instanceof Error ? error.message : error);
  })
  .finally(async () => {
    await stopAllChildren();
    removeLogs(failed);
    process.exit(failed ? 1 : 0);
  });
