import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InfraConfig } from './config';

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

interface Holder {
  pid: number;
  host: string;
  token: string;
}

/** The holder touches the lock this often; a lock untouched for STALE_MS belongs to a process that is gone. */
const HEARTBEAT_MS = 5_000;
const STALE_MS = 15_000;
/** Locks this process holds or held: re-opening a directory in the same process (tests) is not a second writer. */
const ownTokens = new Set<string>();

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function readHolder(file: string): { holder: Holder | null; ageMs: number } | null {
  try {
    const ageMs = Date.now() - fs.statSync(file).mtimeMs;
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Holder>;
    const holder =
      typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.token === 'string' ? (parsed as Holder) : null;
    return { holder, ageMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { holder: null, ageMs: Infinity }; // unreadable: treated as stale
  }
}

/** Whether the lock may be taken over: ours, untouched too long, or left by a process of this machine that has exited. */
function isStale(holder: Holder | null, ageMs: number, staleMs: number): boolean {
  if (!holder || ownTokens.has(holder.token) || ageMs > staleMs) return true;
  return holder.host === os.hostname() && holder.pid !== process.pid && !isAlive(holder.pid);
}

/** Moves a stale lock aside; false when another process took it over first (then nothing is touched). */
function removeStale(file: string, staleToken: string | undefined): boolean {
  const aside = `${file}.${randomUUID()}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const moved = readHolder(aside);
  if (moved?.holder && moved.holder.token !== staleToken) {
    // A fresh lock replaced the stale one between the read and the move: put it back.
    try {
      fs.linkSync(aside, file);
    } finally {
      fs.rmSync(aside, { force: true });
    }
    return false;
  }
  fs.rmSync(aside, { force: true });
  return true;
}

/**
 * Claims DATA_DIR for this process when something in it can only have one writer: the embedded
 * database (PGlite) or the in-process bus's event log. A second process on the same directory
 * would corrupt both, so it is refused with a clear message. The holder touches the lock every 5 s;
 * a lock left by a process of this machine that has exited is taken over at once, and one from
 * elsewhere (another container on the same volume) once it has gone 15 s untouched, which a start
 * waits for. Null when nothing needs it (memory:// data, or PostgreSQL and NATS in use).
 */
export async function lockDataDir(
  infra: InfraConfig,
  { staleMs = STALE_MS, heartbeatMs = HEARTBEAT_MS }: { staleMs?: number; heartbeatMs?: number } = {},
): Promise<DataDirLock | null> {
  if (infra.dataDir.startsWith('memory://') || (infra.databaseUrl && infra.natsUrl)) return null;
  fs.mkdirSync(infra.dataDir, { recursive: true });
  const file = path.join(infra.dataDir, '.lock');
  const token = randomUUID();
  const deadline = Date.now() + staleMs + heartbeatMs;
  for (;;) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, host: os.hostname(), token, since: new Date().toISOString() }), {
        flag: 'wx',
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const found = readHolder(file);
    if (!found) continue;
    if (isStale(found.holder, found.ageMs, staleMs)) {
      removeStale(file, found.holder?.token);
      continue;
    }
    const holder = found.holder!;
    const where = holder.host === os.hostname() ? `process ${holder.pid}` : `process ${holder.pid} on ${holder.host}`;
    // A live process of this machine will not go away by waiting; one elsewhere may be gone, which only time tells.
    if (holder.host === os.hostname() || Date.now() > deadline) {
      throw new Error(`DATA_DIR ${path.resolve(infra.dataDir)} is in use by ${where}. Stop it first, or give this one another DATA_DIR.`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, heartbeatMs)));
  }
  ownTokens.add(token);
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      fs.utimesSync(file, now, now);
    } catch {
      // Gone (the directory was deleted): nothing left to guard.
    }
  }, heartbeatMs);
  heartbeat.unref();
  return {
    file,
    release: () => {
      clearInterval(heartbeat);
      if (readHolder(file)?.holder?.token === token) fs.rmSync(file, { force: true });
    },
  };
}
