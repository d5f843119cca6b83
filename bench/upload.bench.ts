/**
 * `npm run bench:upload`: how much the server's memory (RSS) grows while members upload Self-AI photos.
 *
 * Starts the built embedded product (services/embedded/dist/main.js) as a child process on a temporary data directory
 * (local-file storage); this process is only the client. Through the real flow (POST /api/objects/upload, PUT the bytes
 * to the signed target, PUT /api/upload-self-ai) it uploads BENCH_UPLOADS (5) photos just under 10485760 bytes each,
 * all at once, and prints the growth of the child's RSS over its RSS before: for the PUT phase and for the whole flow
 * (PUTs, then registrations: checks and re-encoding). The baseline is the same number of small photos in the same run.
 * The peak comes from the kernel's high-water mark (VmHWM, reset through /proc/<pid>/clear_refs before each phase)
 * where that is allowed, else from VmRSS sampled every 2 ms. Aim (the issue): at most 20 MB. A figure, not an assertion.
 * Unless MALLOC_ARENA_MAX is set, the same is run again with MALLOC_ARENA_MAX=2 (glibc's arenas are most of what stays).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { TestClient, registration } from '../gateway/test/http-client';

const ROOT = path.resolve(__dirname, '..');
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 5);
const LIMIT = 10_485_760;
const SAMPLE_EVERY_MS = 2;
/** Before each phase: time for the server's allocator and collector to give back what the previous phase left. */
const SETTLE_MS = 1_500;

/** A PNG of noise just under the limit (noise does not compress). */
async function largePhoto(): Promise<Buffer> {
  let side = 1866;
  for (;;) {
    const pixels = Buffer.alloc(side * side * 3);
    for (let index = 0; index < pixels.length; index++) pixels[index] = (index * 2654435761 + side) >>> 24;
    const file = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    if (file.length <= LIMIT) return file;
    side -= 4;
  }
}

const smallPhoto = () =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: '#c84' } })
    .png()
    .toBuffer();

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The server, started as `node services/embedded/dist/main.js`; resolves once it prints its URL. */
async function startServer(dataDir: string, extraEnv: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extraEnv,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    SIGNUPS_PER_IP_PER_HOUR: '1000',
  };
  // The embedded product on its own: no shared database, bus or bucket from the caller's environment.
  for (const name of ['DATABASE_URL', 'NATS_URL', 'S3_BUCKET', 'NODE_OPTIONS']) delete env[name];
  const child = spawn(
    process.execPath,
    ['-r', path.join(__dirname, 'exit-with-parent.cjs'), path.join(ROOT, 'services/embedded/dist/main.js')],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in time:\n${output}`)), 120_000);
    child.stdout!.on('data', () => {
      const found = /Ready: (http\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it was ready:\n${output}`));
    });
  });
  return { child, url };
}

/** The child's memory as the kernel counts it: resident now, and the high-water mark since the last reset. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Resets the child's high-water mark to its current RSS (Linux: `echo 5 > /proc/<pid>/clear_refs`); false where not allowed. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Watches one process's RSS: `growth(work)` is the peak while `work` runs over the RSS when it started. */
class RssWatch {
  readonly method: string;
  private readonly exactPeak: boolean;

  constructor(private readonly pid: number) {
    this.exactPeak = resetPeak(pid);
    this.method = this.exactPeak ? 'kernel high-water mark (VmHWM)' : `VmRSS sampled every ${SAMPLE_EVERY_MS} ms`;
  }

  /** The peak RSS growth while `work` runs; `marks` reads the growth so far at points inside it. */
  async growth(work: (mark: () => number) => Promise<void>): Promise<number> {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    if (this.exactPeak) resetPeak(this.pid);
    const before = memoryOf(this.pid).rss;
    let sampled = before;
    const sample = () => {
      const now = memoryOf(this.pid);
      sampled = Math.max(sampled, now.rss, this.exactPeak ? now.peak : 0);
      return sampled - before;
    };
    const sampler = setInterval(sample, SAMPLE_EVERY_MS);
    try {
      await work(sample);
    } finally {
      clearInterval(sampler);
    }
    return sample();
  }
}

/** The bytes go to signed targets (streamed into storage by the gateway); answers the targets. */
async function putAll(client: TestClient, photos: Buffer[]): Promise<string[]> {
  return Promise.all(
    photos.map(async (photo) => {
      const target = await client.fetch('/api/objects/upload', { method: 'POST' });
      const { uploadURL } = (await target.json()) as { uploadURL: string };
      const put = await fetch(uploadURL, {
        method: 'PUT',
        body: new Uint8Array(photo.buffer as ArrayBuffer, photo.byteOffset, photo.length),
      });
      if (put.status !== 200) throw new Error(`PUT answered ${put.status}`);
      return uploadURL;
    }),
  );
}

/** Media checks and re-encodes each staged upload (one at a time per process; the others wait in its queue). */
async function registerAll(client: TestClient, uploadURLs: string[]): Promise<void> {
  await Promise.all(
    uploadURLs.map(async (imageURL) => {
      const registered = await client.fetch('/api/upload-self-ai', {
        method: 'PUT',
        json: { imageURL, attestation: { ofSelf: true, adult: true } },
      });
      if (registered.status !== 201) throw new Error(`registration answered ${registered.status}: ${await registered.text()}`);
    }),
  );
}

/** RSS growth of the transfer (PUTs) and of the whole flow (PUTs, then registrations), and how long each took. */
async function measure(watch: RssWatch, client: TestClient, photos: Buffer[]) {
  let transfer = 0;
  let transferMs = 0;
  const started = performance.now();
  const total = await watch.growth(async (mark) => {
    const targets = await putAll(client, photos);
    transfer = mark();
    transferMs = performance.now() - started;
    await registerAll(client, targets);
  });
  return { transfer, total, transferMs, totalMs: performance.now() - started };
}

/** The flow against one server process started with `extraEnv`: warm-up, the baseline, then the large photos. */
async function run(label: string, extraEnv: NodeJS.ProcessEnv, large: Buffer, small: Buffer): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-upload-'));
  const server = await startServer(dataDir, extraEnv);
  try {
    const watch = new RssWatch(server.child.pid!);
    const member = async () => {
      const client = new TestClient(server.url);
      const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      if (response.status !== 201) throw new Error(`sign-up answered ${response.status}`);
      return client;
    };
    // Warm-up: the first uploads load sharp and its codecs and fill the server's pools, which would otherwise count.
    await measure(watch, await member(), [small]);
    const first = await measure(watch, await member(), [large]);
    const baseline = await measure(
      watch,
      await member(),
      Array.from({ length: UPLOADS }, () => small),
    );
    const growth = await measure(
      watch,
      await member(),
      Array.from({ length: UPLOADS }, () => large),
    );
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const ratio = (value: number, base: number) => `${(value / Math.max(base, 1)).toFixed(1)}×`;
    console.log(`server ${label}:`);
    console.log(`  PUT phase (streamed into storage): RSS grew ${mb(growth.transfer)} (${seconds(growth.transferMs)})`);
    console.log(`  whole flow (PUTs, then checks and re-encoding): RSS grew ${mb(growth.total)} (${seconds(growth.totalMs)})`);
    console.log(`  (before these: the first large photo after start, warming up, grew it ${mb(first.total)})`);
    console.log(`  baseline, ${UPLOADS} × ${small.length} bytes: PUT phase ${mb(baseline.transfer)}; whole flow ${mb(baseline.total)}`);
    console.log(
      `  ratio to the baseline: PUT phase ${ratio(growth.transfer, baseline.transfer)}, whole flow ${ratio(growth.total, baseline.total)}`,
    );
    console.log(`  (peak: ${watch.method}; server RSS at the end ${mb(memoryOf(server.child.pid!).rss)})`);
  } finally {
    if (server.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const large = await largePhoto();
  const small = await smallPhoto();
  console.log(
    `upload: ${UPLOADS} × ${large.length} bytes (${mb(large.length * UPLOADS)} in all), at once, to a separate server process; aim: at most 20 MB`,
  );
  await run(
    process.env.MALLOC_ARENA_MAX ? `with MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX}` : 'as started by default',
    {},
    large,
    small,
  );
  // glibc gives each thread that allocates (libuv's pool runs sharp) its own arena and keeps their peaks: two arenas keep less.
  if (!process.env.MALLOC_ARENA_MAX) await run('with MALLOC_ARENA_MAX=2', { MALLOC_ARENA_MAX: '2' }, large, small);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
