import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lockDataDir } from '../src/data-dir-lock';

describe('DATA_DIR lock', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  const embedded = () => ({ dataDir: dir, databaseUrl: null, natsUrl: null });
  const lockedBy = (pid: number) => fs.writeFileSync(path.join(dir, '.lock'), JSON.stringify({ pid }));
  /** A process of someone else's that lives until the test ends. */
  const otherProcess = () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    children.push(child);
    return child.pid!;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-dir-lock-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a data directory another running process holds, naming it', () => {
    const pid = otherProcess();
    lockedBy(pid);
    expect(() => lockDataDir(embedded())).toThrow(
      `DATA_DIR ${dir} is in use by process ${pid}. Stop it first, or give this one another DATA_DIR.`,
    );
  });

  it('takes over a lock left by a process that is gone, and gives it up on release', async () => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    lockedBy(child.pid!);
    const lock = lockDataDir(embedded());
    expect(JSON.parse(fs.readFileSync(lock!.file, 'utf8'))).toMatchObject({ pid: process.pid });
    lock!.release();
    expect(fs.existsSync(lock!.file)).toBe(false);
  });

  it('locks only when the embedded database or event log lives in the directory', () => {
    expect(lockDataDir({ dataDir: 'memory://x', databaseUrl: null, natsUrl: null })).toBeNull();
    expect(lockDataDir({ dataDir: dir, databaseUrl: 'postgres://db', natsUrl: 'nats://bus' })).toBeNull();
    const pglite = lockDataDir({ dataDir: dir, databaseUrl: null, natsUrl: 'nats://bus' });
    expect(pglite).not.toBeNull();
    pglite!.release();
    const eventLog = lockDataDir({ dataDir: dir, databaseUrl: 'postgres://db', natsUrl: null });
    expect(eventLog).not.toBeNull();
    eventLog!.release();
  });
});
