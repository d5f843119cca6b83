import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Infra } from './config';
import { logger } from './logger';

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
  let ageMs: number;
  try {
    ageMs = Date.now() - fs.statSync(file).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Holder>;
    const valid = typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.token === 'string';
    return { holder: valid ? (parsed as Holder) : null, ageMs };
  } catch {
    return { holder: null, ageMs };
  }
}

/**
 * Whether the lock may be taken over. On this machine the pid decides: a holder that has exited, or
 * one with this process's own pid but another token (a container restarted after a crash gets the
 * same pid), is gone. From elsewhere only time tells: a lock untouched for `staleMs`.
 */
function isStale(holder: Holder | null, ageMs: number, staleMs: number): boolean {
  if (holder && ownTokens.has(holder.token)) return true;
  if (holder && holder.host === os.hostname()) return holder.pid === process.pid || !isAlive(holder.pid);
  return ageMs > staleMs;
}

/** Moves a stale lock aside; false when another process took it over first (then its lock is put back). */
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
    // A fresh lock replaced the stale one between the read and the move: put it back (kept aside if a third took the place).
    try {
      fs.linkSync(aside, file);
      fs.rmSync(aside, { force: true });
    } catch {
      // Left aside; its holder's heartbeat reports the loss.
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
 * waits for. A holder that finds its lock taken says so in the log. Null when nothing needs it (memory:// data, or PostgreSQL and NATS in use).
 */
export async function lockDataDir(
  infra: Infra,
  { staleMs = STALE_MS, heartbeatMs = HEARTBEAT_MS }: { staleMs?: number; heartbeatMs?: number } = {},
): Promise<DataDirLock | null> {
  // Only PGlite and the event log need a single writer; in memory, or on PostgreSQL and NATS, nothing does.
  const dataDir = infra.dataDir;
  if (!dataDir || infra.mode === 'distributed') return null;
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, '.lock');
  const token = randomUUID();
  const deadline = Date.now() + staleMs + heartbeatMs;
  const content = JSON.stringify({ pid: process.pid, host: os.hostname(), token, since: new Date().toISOString() });
  for (;;) {
    // Written whole under another name, then linked into place: nobody ever reads a half-written lock.
    const draft = `${file}.${token}.new`;
    fs.writeFileSync(draft, content);
    try {
      fs.linkSync(draft, file);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
    const found = readHolder(file);
    if (!found) continue;
    if (isStale(found.holder, found.ageMs, staleMs)) {
      removeStale(file, found.holder?.token);
      continue;
    }
    const { holder } = found;
    const here = holder?.host === os.hostname();
    const where = !holder
      ? 'another process (its lock cannot be read)'
      : here
        ? `process ${holder.pid}`
        : `process ${holder.pid} on ${holder.host}`;
    // A live process of this machine will not go away by waiting; one elsewhere may be gone, which only time tells.
    if (here || Date.now() > deadline) {
      throw new Error(`DATA_DIR ${dataDir} is in use by ${where}. Stop it first, or give this one another DATA_DIR.`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, heartbeatMs)));
  }
  ownTokens.add(token);
  const heartbeat = setInterval(() => {
    try {
      if (readHolder(file)?.holder?.token !== token) {
        // Taken over (this process stalled past the stale time, seen from another machine): two writers now.
        logger.error({ file }, 'DATA_DIR lock lost to another process; stop this one');
        clearInterval(heartbeat);
        return;
      }
      const now = new Date();
      fs.utimesSync(file, now, now);
    } catch (error) {
      logger.warn({ file, err: error }, 'DATA_DIR lock not refreshed; will retry');
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
