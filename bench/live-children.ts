/**
 * The child processes of bench/live.bench.ts: each runs one server (`node -r @swc-node/register <script>`) with an
 * IPC channel, writes its output to a log file, reports `{ type: 'ready', ... }`, and answers requests
 * (`{ requestId, request }` → `{ requestId, result | error }`). Every child started is stopped on exit, Ctrl-C included.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const ROOT = path.resolve(__dirname, '..');
const EXIT_WITH_PARENT = path.join(__dirname, 'exit-with-parent.cjs');
const STARTUP_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 300_000;

/** What a live-bench server process reports about itself. */
export interface ProcessStats {
  rss: number;
  heapUsed: number;
  /** CPU time (user + system) used since the process started, in ms. */
  cpuMs: number;
  /** The longest event-loop stall since the previous stats taken with a collection, in ms. */
  loopDelayMaxMs: number;
  /** Live messages a gateway built on a recording bus received: routed (per conversation or member) and broadcast (sign-outs). */
  liveReceived?: { routed: number; broadcast: number; subjects: string[] };
}

export type ChildRequest = { type: 'stats'; collectGarbage?: boolean } | { type: 'seed'; members: number; balance: number };
export type ChildReply = { requestId: number; result?: unknown; error?: string };
export type ReadyMessage = { type: 'ready'; url?: string; secondUrl?: string };

/** Where the children's output goes; made by the first child started (the children import this module too). */
let logDir: string | null = null;
let keepLogs = false;
const running = new Set<Child>();
/** Event-loop stalls of a child process, recorded once it answers requests. */
let loopDelay: ReturnType<typeof monitorEventLoopDelay> | null = null;

export class Child {
  private nextRequestId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly exited: Promise<void>;
  readonly process: ChildProcess;
  readonly logFile: string;

  constructor(
    readonly name: string,
    script: string,
    env: NodeJS.ProcessEnv,
  ) {
    logDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'live-bench-'));
    this.logFile = path.join(logDir, `${name.replace(/\W+/g, '-')}.log`);
    const fd = fs.openSync(this.logFile, 'w');
    // --expose-gc: memory is read after a full collection, so garbage left by the handshakes does not count.
    // BENCH_SERVER_NODE_ARGS: extra flags for the servers, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where they spend time.
    const extraArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
    this.process = spawn(process.execPath, ['--expose-gc', ...extraArgs, '-r', EXIT_WITH_PARENT, '-r', '@swc-node/register', script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', fd, fd, 'ipc'],
    });
    fs.closeSync(fd);
    this.exited = new Promise((resolve) => this.process.once('exit', () => resolve()));
    this.process.on('message', (message: ChildReply) => {
      const waiting = this.pending.get(message.requestId);
      if (!waiting) return;
      this.pending.delete(message.requestId);
      if (message.error) waiting.reject(new Error(`${name}: ${message.error}`));
      else waiting.resolve(message.result);
    });
    this.process.once('exit', (code, signal) => {
      for (const waiting of this.pending.values()) waiting.reject(this.failure(`exited (${signal ?? code})`));
      this.pending.clear();
    });
    running.add(this);
  }

  /** Resolves with the child's ready message; rejects if it exits or stays silent too long. */
  ready(): Promise<ReadyMessage> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        clearTimeout(timer);
        reject(this.failure(`exited (${signal ?? code}) before it was ready`));
      };
      const onMessage = (message: ReadyMessage) => {
        if (message.type !== 'ready') return;
        clearTimeout(timer);
        this.process.off('exit', onExit).off('message', onMessage);
        resolve(message);
      };
      const timer = setTimeout(() => {
        this.process.off('exit', onExit).off('message', onMessage);
        reject(this.failure('did not report ready in time'));
      }, STARTUP_TIMEOUT_MS);
      this.process.on('exit', onExit).on('message', onMessage);
    });
  }

  request<T>(request: ChildRequest): Promise<T> {
    const requestId = this.nextRequestId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(this.failure(`did not answer ${request.type} in time`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(requestId, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.process.send({ requestId, request });
    });
  }

  stats(collectGarbage = false): Promise<ProcessStats> {
    return this.request<ProcessStats>({ type: 'stats', collectGarbage });
  }

  async stop(): Promise<void> {
    running.delete(this);
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.process.kill('SIGTERM');
    const killed = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(killed);
  }

  private failure(reason: string): Error {
    keepLogs = true;
    const tail = fs.readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-30).join('\n');
    return new Error(`${this.name} ${reason}. Last lines of ${this.logFile}:\n${tail}`);
  }
}

/** Stops every child still running. */
export async function stopAllChildren(): Promise<void> {
  for (const child of [...running].reverse()) await child.stop().catch(() => undefined);
}

/** Removes the children's logs, unless something failed. */
export function removeLogs(failed: boolean): void {
  if (!logDir) return;
  if (failed || keepLogs || process.env.BENCH_KEEP_LOGS === '1') console.error(`server logs kept in ${logDir}`);
  else fs.rmSync(logDir, { recursive: true, force: true });
}

/** The child side: answers the parent's requests with `handle`, one reply per request. */
export function answerRequests(handle: (request: ChildRequest) => Promise<unknown>): void {
  loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  process.on('message', (message: { requestId: number; request: ChildRequest }) => {
    handle(message.request).then(
      (result) => process.send?.({ requestId: message.requestId, result } satisfies ChildReply),
      (error: unknown) =>
        process.send?.({
          requestId: message.requestId,
          error: error instanceof Error ? error.message : String(error),
        } satisfies ChildReply),
    );
  });
}

/**
 * This process's memory and CPU, for the parent's figures. Asked with a collection (at the bench's phase
 * boundaries), memory is read after a full GC and the event-loop stall record starts again.
 */
export function ownStats(request: ChildRequest): ProcessStats {
  const loopDelayMaxMs = (loopDelay?.max ?? 0) / 1e6;
  if (request.type === 'stats' && request.collectGarbage) {
    (globalThis as { gc?: () => void }).gc?.();
    loopDelay?.reset();
  }
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return { rss: memory.rss, heapUsed: memory.heapUsed, cpuMs: (cpu.user + cpu.system) / 1000, loopDelayMaxMs };
}
