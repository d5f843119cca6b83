import fs from 'node:fs';
import path from 'node:path';
import type { InfraConfig } from './config';

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const holderOf = (file: string): number | null => {
  try {
    const pid = Number((JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: unknown }).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
};

/**
 * Claims DATA_DIR for this process when something in it can only have one writer: the embedded
 * database (PGlite) or the in-process bus's event log. A second process on the same directory
 * would corrupt both, so it is refused with a clear message; a lock left by a process that is gone
 * is taken over. Null when nothing needs it (memory:// data, or PostgreSQL and NATS in use).
 */
export function lockDataDir(infra: InfraConfig): DataDirLock | null {
  if (infra.dataDir.startsWith('memory://') || (infra.databaseUrl && infra.natsUrl)) return null;
  fs.mkdirSync(infra.dataDir, { recursive: true });
  const file = path.join(infra.dataDir, '.lock');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }), { flag: 'wx' });
      return {
        file,
        release: () => {
          if (holderOf(file) === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(file);
      if (holder !== null && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `DATA_DIR ${path.resolve(infra.dataDir)} is in use by process ${holder}. Stop it first, or give this one another DATA_DIR.`,
        );
      }
      // Left by a process that is gone (or by this one): take it over.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock DATA_DIR ${path.resolve(infra.dataDir)}`);
}
