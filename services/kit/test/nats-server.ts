import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const required = process.env.REQUIRE_INTEGRATION === '1';
const BINARY_CANDIDATES = [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];
const START_TIMEOUT_MS = 15_000;

/** The nats-server binary, or null when this machine has none (CI, with REQUIRE_INTEGRATION=1, must have one). */
export function natsServerBinary(): string | null {
  const found = BINARY_CANDIDATES.find((candidate): candidate is string => Boolean(candidate && fs.existsSync(candidate)));
  if (!found && required) throw new Error('REQUIRE_INTEGRATION=1 but no nats-server binary was found (set NATS_SERVER_BIN)');
  return found ?? null;
}

export interface PrivateNatsOptions {
  /** A nats-server configuration file (users, permissions, TLS). */
  configFile?: string;
  /** Variables the configuration refers to (passwords). */
  env?: NodeJS.ProcessEnv;
}

/**
 * A nats-server of a test's own, with JetStream on a private store directory, so the test can
 * secure it, stop it and start it again without disturbing anyone else's server.
 */
export class PrivateNatsServer {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    readonly storeDir: string,
    private readonly options: PrivateNatsOptions,
  ) {}

  static async start(options: PrivateNatsOptions = {}): Promise<PrivateNatsServer> {
    const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-store-'));
    const server = new PrivateNatsServer(await freePort(), storeDir, options);
    await server.resume();
    return server;
  }

  url(scheme = 'nats'): string {
    return `${scheme}://127.0.0.1:${this.port}`;
  }

  /** Starts the server again on the same port and store directory; `jetstream: false` brings it back without its streams. */
  async resume({ jetstream = true } = {}): Promise<void> {
    const args = ['-a', '127.0.0.1', '-p', String(this.port), ...(jetstream ? ['-js', '-sd', this.storeDir] : [])];
    if (this.options.configFile) args.unshift('-c', this.options.configFile);
    const child = spawn(natsServerBinary()!, args, {
      env: { PATH: process.env.PATH, ...this.options.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let log = '';
      const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${log}`)), START_TIMEOUT_MS);
      child.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Server is ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`nats-server exited with ${code}:\n${log}`));
      });
    });
    child.stderr!.resume();
  }

  /** Stops the server (its clients see a disconnect); `resume` brings it back with its streams. */
  async halt(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async stop(): Promise<void> {
    await this.halt();
    fs.rmSync(this.storeDir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
