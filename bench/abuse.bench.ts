/**
 * `npm run bench:abuse`: the attacks from the availability review, each bounded and on loopback only, against
 * the embedded product running in a child process (bench/abuse-server.ts). While each attack runs, three
 * probes from another address keep asking for `/healthz`, GraphQL `me` and an image file, one request at a
 * time each; their p50/p99 are printed with the p99 as a ratio of the same probe's idle p99, measured first
 * in the same run. Aim per attack: every probe's p99 under 3x idle and no probe request failing (locked out).
 *
 * Attacks: a chain of 30 doubling fragments; 1,000 aliases of `publicImages(first: 100)`; 1,100 half-sent
 * requests from 20 addresses; 200 concurrent wrong-password sign-ins for unknown e-mails from 20 addresses;
 * 10,000 subscriptions on one socket while the member's balance changes; 2,000 concurrent `me` from 20 addresses.
 * BENCH_ATTACK_MS (default 8000) sets how long each attack lasts; BENCH_SCENARIOS (comma-separated: fragment-chain,
 * alias-bomb, half-sent, sign-in-flood, subscription-flood, cpu-flood) runs only those.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { TestClient, registration } from '../gateway/test/http-client';
import type { Scenario, StartMessage } from './abuse-attacker';

const ATTACK_MS = Number(process.env.BENCH_ATTACK_MS ?? 8000);
const IDLE_MS = 4000;
const WARM_UP_MS = 2000;
const PROBE_TIMEOUT_MS = 15_000;
const AIM_RATIO = 3;
const OPERATOR_TOKEN = randomUUID() + randomUUID();
const ROOT = path.join(__dirname, '..');

interface Sample {
  ms: number;
  /** Empty when the probe got what it asked for; otherwise what it got instead (a status, "timeout", an error code). */
  failure: string;
}

type Probe = () => Promise<string>;

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a bench child (`node -r @swc-node/register <script>`) with an IPC channel; it dies with the bench. */
function startChild(script: string, env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['-r', './bench/exit-with-parent.cjs', '-r', '@swc-node/register', script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** The next IPC message of `type` from a child; rejects if the child exits first. */
function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a bench child exited (${code}) while the bench waited for "${type}"`));
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('exit', onExit).off('message', onMessage);
      resolve(message as T);
    };
    child.once('exit', onExit).on('message', onMessage);
  });
}

/** Runs each probe in its own sequential loop for `durationMs`. */
async function measure(probes: Record<string, Probe>, durationMs: number): Promise<Record<string, Sample[]>> {
  const until = Date.now() + durationMs;
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => {
      const samples: Sample[] = [];
      while (Date.now() < until) {
        const started = performance.now();
        const failure = await probe().catch((error: Error) => (error.name === 'TimeoutError' ? 'timeout' : error.message));
        samples.push({ ms: performance.now() - started, failure });
        if (failure) await sleep(50);
      }
      return [name, samples] as const;
    }),
  );
  return Object.fromEntries(entries);
}

function row(name: string, samples: Sample[], idle?: Sample[]): { line: string; pass: boolean } {
  const times = samples.map((sample) => sample.ms);
  const failures = new Map<string, number>();
  for (const { failure } of samples) if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1);
  const failed = [...failures.values()].reduce((sum, count) => sum + count, 0);
  const why = failed > 0 ? ` (${[...failures].map(([failure, count]) => `${failure} x${count}`).join(', ')})` : '';
  const p99 = percentile(times, 99);
  const ratio = idle
    ? p99 /
      percentile(
        idle.map((sample) => sample.ms),
        99,
      )
    : 1;
  const pass = failed === 0 && ratio <= AIM_RATIO;
  const figures = `p50 ${percentile(times, 50).toFixed(1).padStart(8)} ms  p99 ${p99.toFixed(1).padStart(8)} ms`;
  const versus = idle ? `  ${ratio.toFixed(1).padStart(5)}x idle p99` : '';
  return { line: `  ${name.padEnd(8)} ${figures}${versus}  ${samples.length} requests, ${failed} failed${why}`, pass };
}

async function main(): Promise<void> {
  const server = startChild('bench/abuse-server.ts', { OPERATOR_TOKEN });
  const attacker = startChild('bench/abuse-attacker.ts');
  try {
    const { gatewayUrl } = await nextMessage<{ gatewayUrl: string }>(server, 'ready');
    const member = new TestClient(gatewayUrl);
    const input = registration();
    await member.fetch('/api/auth/register', { method: 'POST', json: input });
    const generated = (await (
      await member.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'a lighthouse on a cliff at dawn' } })
    ).json()) as { imageUrl?: string; url?: string };
    const imagePath = generated.imageUrl ?? generated.url;
    if (!imagePath) throw new Error(`no image to probe: ${JSON.stringify(generated)}`);
    const timeout = () => AbortSignal.timeout(PROBE_TIMEOUT_MS);
    const probes: Record<string, Probe> = {
      healthz: async () => {
        const response = await fetch(`${gatewayUrl}/healthz`, { signal: timeout() });
        return response.status === 200 ? '' : String(response.status);
      },
      me: async () => {
        const response = await member.fetch('/graphql', { method: 'POST', json: { query: '{ me { id tokens } }' }, signal: timeout() });
        const body = (await response.json()) as { data?: { me?: unknown }; errors?: { extensions?: { code?: string } }[] };
        if (response.status === 200 && body.data?.me) return '';
        return `${response.status}${body.errors?.[0]?.extensions?.code ? ` ${body.errors[0].extensions.code}` : ''}`;
      },
      image: async () => {
        const response = await member.fetch(imagePath, { signal: timeout() });
        await response.arrayBuffer();
        return response.status === 200 ? '' : String(response.status);
      },
    };

    console.log(
      `# abuse bench: embedded product, ${ATTACK_MS / 1000} s per attack, aim p99 <= ${AIM_RATIO}x idle and nothing locked out\n`,
    );
    await measure(probes, WARM_UP_MS);
    const idle = await measure(probes, IDLE_MS);
    console.log('## idle');
    for (const [name, samples] of Object.entries(idle)) console.log(row(name, samples).line);

    const scenarios: [Scenario, string][] = [
      ['fragment-chain', 'fragment chain: 30 doubling fragments, 8 at a time'],
      ['alias-bomb', 'alias bomb: 1,000 x publicImages(first: 100), 8 at a time'],
      ['half-sent', 'half-sent requests: 1,100 sockets from 20 addresses'],
      ['sign-in-flood', 'sign-in flood: 200 concurrent unknown e-mails from 20 addresses'],
      ['subscription-flood', 'subscription flood: 10,000 on one socket, balance changing'],
      ['cpu-flood', 'CPU flood: 2,000 concurrent me from 20 addresses'],
    ];
    const verdicts: string[] = [];
    const only = process.env.BENCH_SCENARIOS?.split(',');
    for (const [scenario, name] of scenarios.filter(([scenario]) => !only || only.includes(scenario))) {
      const started = nextMessage(attacker, 'started');
      attacker.send({
        type: 'start',
        scenario,
        gatewayUrl,
        cookie: member.cookie!,
        email: input.email,
        operatorToken: OPERATOR_TOKEN,
      } satisfies StartMessage);
      await started;
      await sleep(500);
      const during = await measure(probes, ATTACK_MS);
      const stopped = nextMessage<{ outcome: string }>(attacker, 'stopped');
      attacker.send({ type: 'stop' });
      const { outcome } = await stopped;
      console.log(`\n## ${name}\n  attacker: ${outcome}`);
      const rows = Object.entries(during).map(([probe, samples]) => row(probe, samples, idle[probe]));
      for (const { line } of rows) console.log(line);
      const pass = rows.every((result) => result.pass);
      verdicts.push(`  ${pass ? 'PASS' : 'MISS'}  ${name}`);
      // Let the gateway settle (timeouts, sockets closing) before the next attack.
      await sleep(2000);
    }
    console.log(`\n## summary\n${verdicts.join('\n')}`);
  } finally {
    attacker.kill('SIGTERM');
    server.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
