import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Infra } from '../src/config';
import { lockDataDir } from '../src/data-dir-lock';

describe('DATA_DIR lock', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  const embedded = () => Infra.from({ dataDir: dir, databaseUrl: null, natsUrl: null });
  const lockFile = () => path.join(dir, '.lock');
  /** A lock written by another process; `ageMs` back-dates its last heartbeat. */
  const lockedBy = (pid: number, host = os.hostname(), ageMs = 0) => {
    fs.writeFileSync(lockFile(), JSON.stringify({ pid, host, token: `other-${pid}-${host}` }));
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(lockFile(), then, then);
  };
  /** A process of someone else's that lives until the test ends. */
  const otherProcess = () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    children.push(child);
    return child.pid!;
  };
  const holderPid = () => (JSON.parse(fs.readFileSync(lockFile(), 'utf8')) as { pid: number }).pid;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-dir-lock-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses at once a directory that a running process of this machine holds, naming it', async () => {
    const pid = otherProcess();
    lockedBy(pid);
    await expect(lockDataDir(embedded())).rejects.toThrow(
      `DATA_DIR ${dir} is in use by process ${pid}. Stop it first, or give this one another DATA_DIR.`,
    );
    expect(holderPid()).toBe(pid);
  });

  it('takes over at once a lock left by a process of this machine that has exited, and gives it up on release', async () => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    lockedBy(child.pid!);
    const lock = await lockDataDir(embedded());
    expect(holderPid()).toBe(process.pid);
    lock!.release();
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('waits for a lock held elsewhere (another container on the volume): refused while its holder keeps it fresh', async () => {
    lockedBy(1, 'another-container');
    const heartbeat = setInterval(() => fs.utimesSync(lockFile(), new Date(), new Date()), 50);
    try {
      const started = Date.now();
      await expect(lockDataDir(embedded(), { staleMs: 400, heartbeatMs: 100 })).rejects.toThrow(
        `is in use by process 1 on another-container`,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    } finally {
      clearInterval(heartbeat);
    }
  });

  it('takes over a lock from elsewhere that has gone untouched past the stale time', async () => {
    lockedBy(1, 'another-container', 1_000);
    const lock = await lockDataDir(embedded(), { staleMs: 400, heartbeatMs: 100 });
    expect(holderPid()).toBe(process.pid);
    // The holder keeps its own lock fresh.
    const before = fs.statSync(lockFile()).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(fs.statSync(lockFile()).mtimeMs).toBeGreaterThan(before);
    lock!.release();
  });

  it("takes over a lock with this process's own pid but another token (a container restarted after a crash gets the same pid)", async () => {
    lockedBy(process.pid);
    const lock = await lockDataDir(embedded());
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8')).token).not.toBe(`other-${process.pid}-${os.hostname()}`);
    lock!.release();
  });

  it('a holder whose lock was taken over stops refreshing it and leaves it to the new holder', async () => {
    const lock = await lockDataDir(embedded(), { staleMs: 400, heartbeatMs: 50 });
    // Another machine's process took it over; its heartbeat time is left alone by the old holder.
    lockedBy(4242, 'another-container', 10_000);
    const replaced = fs.readFileSync(lockFile(), 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(Date.now() - fs.statSync(lockFile()).mtimeMs).toBeGreaterThan(9_000);
    lock!.release();
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(replaced);
  });

  it('lets the same process open the directory again (a platform restarted in one process)', async () => {
    const first = await lockDataDir(embedded());
    const second = await lockDataDir(embedded());
    expect(second).not.toBeNull();
    first!.release(); // no longer the holder: leaves the second one's lock alone
    expect(fs.existsSync(lockFile())).toBe(true);
    second!.release();
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('locks only when the embedded database or event log lives in the directory', async () => {
    await expect(lockDataDir(Infra.from({ dataDir: 'memory://x', databaseUrl: null, natsUrl: null }))).resolves.toBeNull();
    await expect(lockDataDir(Infra.from({ dataDir: dir, databaseUrl: 'postgres://db', natsUrl: 'nats://bus' }))).resolves.toBeNull();
    const pglite = await lockDataDir(Infra.from({ dataDir: dir, databaseUrl: null, natsUrl: 'nats://bus' }));
    expect(pglite).not.toBeNull();
    pglite!.release();
    const eventLog = await lockDataDir(Infra.from({ dataDir: dir, databaseUrl: 'postgres://db', natsUrl: null }));
    expect(eventLog).not.toBeNull();
    eventLog!.release();
  });
});
