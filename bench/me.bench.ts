/**
 * `npm run bench`: throughput and latency of the GraphQL `me` query through the gateway, signed in with a session
 * cookie, against a baseline measured in the same run: a bare `node:http` route doing the same database read
 * (bench/me-bench-server.ts).
 *
 * - embedded: the whole platform in one child process (in-memory PGlite, in-process bus); its baseline reads the
 *   identity service's own PGlite.
 * - distributed: the compiled gateway and identity service as separate processes over NATS + PostgreSQL, on a
 *   fresh database `bench_<random>` (dropped afterwards); the baseline reads it through a `pg` Pool. Runs when
 *   DATABASE_URL and NATS_URL are set, or with BENCH_DISTRIBUTED=1 (then defaulting to the local servers);
 *   BENCH_DISTRIBUTED=0 skips it, and so does another identity service already answering on that NATS (the RPC
 *   queue group would mix both databases).
 * The bench user is registered through POST /api/auth/register; its `sid` cookie signs every request in.
 *
 * Every server runs in its own process; autocannon loads them from this one, one target at a time.
 * Settings: BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_WARMUP_SECONDS (1), BENCH_LOG_LEVEL (info, the
 * servers' LOG_LEVEL; their logs go to temporary files), BENCH_SKIP_BUILD=1 (skip `tsc -b services/embedded`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import type { ReadyMessage } from './me-bench-server';

const ROOT = path.resolve(__dirname, '..');
const EXIT_WITH_PARENT = path.join(__dirname, 'exit-with-parent.cjs');
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
const STARTUP_TIMEOUT_MS = 90_000;

const ME_QUERY = JSON.stringify({ query: '{ me { id email firstName lastName profileImageUrl createdAt tokens } }' });
const PASSWORD = 'bench password 12345';

function intSetting(name: string, fallback: number, minimum: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be an integer >= ${minimum}, got "${raw}"`);
  return value;
}

const SECONDS = intSetting('BENCH_SECONDS', 5, 1);
const CONNECTIONS = intSetting('BENCH_CONNECTIONS', 10, 1);
const WARMUP_SECONDS = intSetting('BENCH_WARMUP_SECONDS', 1, 0);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'info';

/** The servers' stdout/stderr; removed at the end unless something failed. */
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'me-bench-'));
let keepLogs = false;

// ---------------------------------------------------------------------------------------------------------------
// Cleanup: everything started registers how to undo it; it runs in reverse on success, failure or Ctrl-C.

const cleanups: { name: string; run: () => Promise<void> }[] = [];
let cleaningUp: Promise<void> | null = null;

function onCleanup(name: string, run: () => Promise<void>): void {
  cleanups.push({ name, run });
}

function cleanUp(): Promise<void> {
  cleaningUp ??= (async () => {
    for (const { name, run } of cleanups.reverse()) {
      await run().catch((error: unknown) => console.error(`cleanup of ${name} failed:`, error));
    }
    cleanups.length = 0;
  })();
  return cleaningUp;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the bench's processes...`);
    void cleanUp().finally(() => {
      fs.rmSync(logDir, { recursive: true, force: true });
      process.exit(130);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Child processes

interface Child {
  name: string;
  process: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

function logTail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Starts `node <args>` from the repository root with an IPC channel; stdout and stderr go to a log file. */
function startChild(name: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const logFile = path.join(logDir, `${name.replace(/\W+/g, '-')}.log`);
  const fd = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, ['-r', EXIT_WITH_PARENT, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL, ...env },
    stdio: ['ignore', fd, fd, 'ipc'],
  });
  fs.closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killed);
  };
  onCleanup(name, stop);
  return { name, process: child, logFile, stop };
}

function failedToStart(child: Child, reason: string): Error {
  keepLogs = true;
  return new Error(`${child.name} ${reason}. Last lines of ${child.logFile}:\n${logTail(child.logFile)}`);
}

function waitForMessage(child: Child): Promise<ReadyMessage> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      reject(failedToStart(child, `exited (${signal ?? code}) before it was ready`));
    };
    const onMessage = (message: ReadyMessage) => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      child.process.off('exit', onExit).off('message', onMessage);
      resolve(message);
    };
    const timer = setTimeout(() => {
      child.process.off('exit', onExit).off('message', onMessage);
      reject(failedToStart(child, 'did not report ready in time'));
    }, STARTUP_TIMEOUT_MS);
    child.process.on('exit', onExit).on('message', onMessage);
  });
}

async function waitForReadyz(child: Child, url: string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw failedToStart(child, `exited (${child.process.exitCode}) before it was ready`);
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw failedToStart(child, `did not answer ${url}/readyz in time`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The bench user and the request

interface BenchUser {
  email: string;
  sid: string;
}

async function registerUser(gatewayUrl: string): Promise<BenchUser> {
  const email = `bench-${randomBytes(6).toString('hex')}@example.com`;
  const response = await fetch(`${gatewayUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, confirmPassword: PASSWORD, dateOfBirth: '1990-01-01', acceptTerms: true }),
  });
  if (response.status !== 201) throw new Error(`POST /api/auth/register answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith('sid='));
  if (!cookie) throw new Error('POST /api/auth/register set no sid cookie');
  const sid = cookie.slice('sid='.length).split(';', 1)[0]!;
  return { email, sid };
}

const requestHeaders = (user: BenchUser) => ({ 'content-type': 'application/json', cookie: `sid=${user.sid}` });

/** One request by hand: the target must answer with the signed-in member; its body is then what every response must be. */
async function expectedBody(url: string, user: BenchUser): Promise<string> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: requestHeaders(user), body: ME_QUERY });
  const body = await response.text();
  const me = (JSON.parse(body) as { data?: { me?: { email?: string } | null } }).data?.me;
  if (response.status !== 200 || me?.email !== user.email) throw new Error(`${url}/graphql did not answer the bench user: ${body}`);
  return body;
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

interface Row {
  mode: string;
  target: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  ratio: number | null;
}

function run(url: string, user: BenchUser, body: string, seconds: number, onLatency?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}/graphql`,
        method: 'POST',
        headers: requestHeaders(user),
        body: ME_QUERY,
        expectBody: body,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onLatency) instance.on('response', (_client, _status, _bytes, ms) => onLatency(ms));
  });
}

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

/** Warm-up (discarded), then the measured run; latencies are recorded per response for sub-millisecond percentiles. */
async function measure(mode: string, target: string, url: string, user: BenchUser, body: string): Promise<Row> {
  if (WARMUP_SECONDS > 0) await run(url, user, body, WARMUP_SECONDS);
  const latencies: number[] = [];
  const result = await run(url, user, body, SECONDS, (ms) => latencies.push(ms));
  const sorted = Float64Array.from(latencies).sort();
  const row: Row = {
    mode,
    target,
    rps: result.requests.total / result.duration,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    errors: result.errors + result.timeouts + result.non2xx + result.mismatches,
    requests: result.requests.total,
    ratio: null,
  };
  console.log(`  ${target}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50.toFixed(2)} ms, p99 ${row.p99.toFixed(2)} ms, ${row.errors} errors`);
  return row;
}

/** The baseline, then the gateway; both must first answer the bench user, and should answer the very same bytes. */
async function measurePair(mode: string, baseline: [string, string], gateway: [string, string], user: BenchUser): Promise<Row[]> {
  const baselineBody = await expectedBody(baseline[1], user);
  const gatewayBody = await expectedBody(gateway[1], user);
  if (baselineBody === gatewayBody) console.log(`  both answer the same ${gatewayBody.length}-byte body`);
  else console.warn(`  note: the bodies differ\n    baseline: ${baselineBody}\n    gateway:  ${gatewayBody}`);
  const baselineRow = await measure(mode, baseline[0], baseline[1], user, baselineBody);
  const gatewayRow = await measure(mode, gateway[0], gateway[1], user, gatewayBody);
  gatewayRow.ratio = gatewayRow.rps / baselineRow.rps;
  return [baselineRow, gatewayRow];
}

// ---------------------------------------------------------------------------------------------------------------
// Modes

async function embeddedMode(): Promise<Row[]> {
  console.log('embedded: starting the platform (in-memory PGlite, in-process bus)...');
  const server = startChild('embedded', ['-r', '@swc-node/register', 'bench/me-bench-server.ts'], { BENCH_ROLE: 'embedded' });
  const { baselineUrl, gatewayUrl } = await waitForMessage(server);
  if (!gatewayUrl) throw new Error('the embedded server reported no gateway URL');
  const user = await registerUser(gatewayUrl);
  const rows = await measurePair('embedded', ['baseline: http + PGlite', baselineUrl], ['gateway: GraphQL me', gatewayUrl], user);
  await server.stop();
  return rows;
}

/** Whether some identity service already answers on this NATS: the gateway's calls would be shared with it. */
async function otherIdentityAnswers(natsUrl: string): Promise<boolean> {
  const [{ connect }, { identityRpc }] = await Promise.all([import('@nats-io/transport-node'), import('@app/schema')]);
  const nc = await connect({ servers: natsUrl.split(','), name: 'me-bench-probe' }).catch((error: unknown) => {
    throw new Error(`cannot reach NATS at ${natsUrl}: ${error instanceof Error ? error.message : String(error)}`);
  });
  try {
    const frame = JSON.stringify({ payload: { sessionToken: 'me-bench-probe' }, meta: {} });
    await nc.request(identityRpc.resolveSession.subject, frame, { timeout: 1000 });
    return true;
  } catch {
    return false;
  } finally {
    await nc.close();
  }
}

async function createDatabase(adminUrl: string): Promise<string> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  onCleanup(`database ${name}`, async () => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function distributedSettings(): { databaseUrl: string; natsUrl: string } | string {
  const flag = process.env.BENCH_DISTRIBUTED;
  if (flag === '0') return 'skipped (BENCH_DISTRIBUTED=0)';
  const databaseUrl = process.env.DATABASE_URL || (flag === '1' ? DEFAULT_DATABASE_URL : '');
  const natsUrl = process.env.NATS_URL || (flag === '1' ? DEFAULT_NATS_URL : '');
  if (databaseUrl && natsUrl) return { databaseUrl, natsUrl };
  const missing = [!databaseUrl && 'DATABASE_URL', !natsUrl && 'NATS_URL'].filter(Boolean).join(' and ');
  return `skipped: ${missing} not set. Set DATABASE_URL and NATS_URL, or BENCH_DISTRIBUTED=1 to use ${DEFAULT_DATABASE_URL} and ${DEFAULT_NATS_URL}.`;
}

async function distributedMode(settings: { databaseUrl: string; natsUrl: string }): Promise<Row[]> {
  const { natsUrl } = settings;
  console.log(`distributed: gateway + identity processes over ${natsUrl} and PostgreSQL...`);
  const databaseUrl = await createDatabase(settings.databaseUrl);
  const healthPort = await freePort();
  const identity = startChild('identity', ['services/identity/dist/main.js'], {
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    HEALTH_PORT: String(healthPort),
    HOST: '127.0.0.1',
    SERVICE_NAME: 'identity',
  });
  await waitForReadyz(identity, `http://127.0.0.1:${healthPort}`);
  const gatewayPort = await freePort();
  const gateway = startChild('gateway', ['gateway/dist/main.js'], {
    DATABASE_URL: '',
    NATS_URL: natsUrl,
    PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    SERVICE_NAME: 'gateway',
  });
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  await waitForReadyz(gateway, gatewayUrl);
  const baseline = startChild('postgres-baseline', ['-r', '@swc-node/register', 'bench/me-bench-server.ts'], {
    BENCH_ROLE: 'postgres',
    BENCH_DATABASE_URL: databaseUrl,
  });
  const { baselineUrl } = await waitForMessage(baseline);
  const user = await registerUser(gatewayUrl);
  const rows = await measurePair(
    'distributed',
    ['baseline: http + pg Pool', baselineUrl],
    ['gateway: GraphQL me -> NATS -> identity', gatewayUrl],
    user,
  );
  await baseline.stop();
  await gateway.stop();
  await identity.stop();
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function printTable(rows: Row[], notes: string[]): void {
  const header = ['mode', 'target', 'requests/s', 'p50 ms', 'p99 ms', 'errors', 'gateway/baseline'];
  const cells = rows.map((row) => [
    row.mode,
    row.target,
    row.rps.toFixed(0),
    row.p50.toFixed(2),
    row.p99.toFixed(2),
    `${row.errors}/${row.requests}`,
    row.ratio === null ? '' : `${row.ratio.toFixed(2)}x`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)));
  const format = (line: string[]) =>
    line.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(
    `\nGraphQL me, signed in: ${SECONDS} s per target after ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections, ` +
      `servers at LOG_LEVEL=${LOG_LEVEL}; Node ${process.version}, ${os.cpus().length} CPUs\n`,
  );
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of cells) console.log(format(line));
  for (const note of notes) console.log(`\n${note}`);
  console.log('\nerrors = connection errors + timeouts + non-2xx + bodies other than the signed-in member, out of all responses.');
}

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    console.log('building the back end (tsc -b services/embedded)...');
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'services/embedded'], { cwd: ROOT, stdio: 'inherit' });
  }
  const rows: Row[] = [];
  const notes: string[] = [];
  rows.push(...(await embeddedMode()));
  const settings = distributedSettings();
  if (typeof settings === 'string') {
    console.log(`distributed: ${settings}`);
    notes.push(`distributed mode ${settings}`);
  } else if (await otherIdentityAnswers(settings.natsUrl)) {
    // Its RPCs are served by a queue group: the gateway's calls would be shared with that service (whose database
    // lacks the bench user), and the bench's identity would answer whoever uses that one.
    const reason =
      `skipped: another identity service already answers on ${settings.natsUrl}; sharing its queue group would mix ` +
      'both databases. Point NATS_URL at a private server, e.g. `nats-server -p 4333 -js` and NATS_URL=nats://127.0.0.1:4333.';
    console.log(`distributed: ${reason}`);
    notes.push(`distributed mode ${reason}`);
  } else {
    rows.push(...(await distributedMode(settings)));
  }
  printTable(rows, notes);
}

main()
  .catch((error: unknown) => {
    keepLogs = true;
    console.error('\nbench failed:', error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanUp();
    if (keepLogs) console.error(`server logs kept in ${logDir}`);
    else fs.rmSync(logDir, { recursive: true, force: true });
  });
