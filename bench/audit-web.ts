/**
 * `npm run audit:web`: a Lighthouse report on the built web app, plus the JavaScript the landing route loads,
 * against the landing page's budget (issue 17).
 *
 * - Serves web/dist through the embedded platform (in-memory data, a free port); it builds the server
 *   (`tsc -b services/embedded`, from the npm script), and the web app when web/dist is missing or with `--build`.
 * - Lighthouse (the npm package) drives Debian's Chromium through chrome-launcher, with its default mobile
 *   configuration (simulated slow 4G, mid-range phone) and its desktop one, on `/` (signed out: the landing page)
 *   and `/tos`. Scores: performance, accessibility, best practices, SEO; metrics: LCP, TBT, CLS.
 * - Landing JavaScript: Chromium (playwright-core) loads `/` until the network is idle; every script response is
 *   gzipped at level 9 (the gateway sends them compressed its own way) and summed, chunk by chunk.
 *
 * Budget: mobile performance >= 95 on `/`, accessibility 100 on every page audited, landing JS <= 150 KB gzip.
 * Exit code: 0 within budget, 1 over it, 2 when it cannot measure (no Chromium, a build that fails, Lighthouse
 * failing twice). Too slow for `npm test`. The full Lighthouse reports (HTML and JSON) are written to a temporary
 * directory printed at the end.
 *
 * Settings: CHROMIUM_PATH (/usr/bin/chromium), AUDIT_WEB_DIST (web/dist: another build to audit), AUDIT_PATHS (comma-separated, default `/,/tos`),
 * AUDIT_FORM_FACTORS (`mobile,desktop`), AUDIT_LOG_LEVEL (warn: the platform's LOG_LEVEL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import type { EmbeddedPlatform } from '@app/embedded';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Flags, type Result, desktopConfig } from 'lighthouse';
import { CHROMIUM_PATH, launchChromium } from '../web/e2e/browser';

const ROOT = path.resolve(__dirname, '..');
const WEB_DIST = path.resolve(ROOT, process.env.AUDIT_WEB_DIST || path.join('web', 'dist'));

const AIMS = { performance: 95, accessibility: 100, landingJsGzipKb: 150 } as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const FORM_FACTORS = ['mobile', 'desktop'] as const;
const LIGHTHOUSE_ATTEMPTS = 2;
type FormFactor = (typeof FORM_FACTORS)[number];

const AUDIT_PATHS = listSetting('AUDIT_PATHS', ['/', '/tos']);
const AUDIT_FORM_FACTORS = listSetting('AUDIT_FORM_FACTORS', [...FORM_FACTORS]).map((value) => {
  if (!(FORM_FACTORS as readonly string[]).includes(value)) throw new Error(`AUDIT_FORM_FACTORS: unknown form factor "${value}"`);
  return value as FormFactor;
});

function listSetting(name: string, fallback: string[]): string[] {
  const raw = process.env[name]?.trim();
  return raw ? raw.split(',').map((item) => item.trim()) : fallback;
}

interface AuditRow {
  path: string;
  formFactor: FormFactor;
  scores: Record<(typeof CATEGORIES)[number], number | null>;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  warnings: string[];
  failedAudits: string[];
}

interface ScriptChunk {
  url: string;
  rawBytes: number;
  gzipBytes: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Cleanup runs in reverse on success, failure or Ctrl-C.

const cleanups: (() => Promise<void>)[] = [];

async function cleanUp(): Promise<void> {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      console.warn('cleanup failed:', error);
    }
  }
}

process.once('SIGINT', () => {
  void cleanUp().finally(() => process.exit(130));
});

// ---------------------------------------------------------------------------------------------------------------

/** Exit codes: within budget, over it, or not measured. */
const EXIT = { withinBudget: 0, overBudget: 1, notMeasured: 2 } as const;

function checkPrerequisites(): void {
  const problems: string[] = [];
  const isDefaultDist = WEB_DIST === path.join(ROOT, 'web', 'dist');
  if (isDefaultDist && (process.argv.includes('--build') || !fs.existsSync(path.join(WEB_DIST, 'index.html')))) {
    console.log('audit:web: building the web app (npm run build:web)');
    const build = spawnSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) problems.push('`npm run build:web` failed.');
  }
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) problems.push(`No web app built in ${WEB_DIST}.`);
  if (!fs.existsSync(CHROMIUM_PATH)) {
    problems.push(`No Chromium at ${CHROMIUM_PATH}: \`apt-get install -y chromium\`, or set CHROMIUM_PATH.`);
  }
  if (problems.length) {
    for (const problem of problems) console.error(`audit:web: ${problem}`);
    process.exit(EXIT.notMeasured);
  }
}

async function startPlatform(): Promise<EmbeddedPlatform> {
  process.env.LOG_LEVEL = process.env.AUDIT_LOG_LEVEL || 'warn';
  // Imported here so the platform's logger sees LOG_LEVEL.
  const { startEmbedded } = await import('@app/embedded');
  const platform = await startEmbedded({
    infra: { dataDir: `memory://audit-web-${process.pid}`, databaseUrl: null, natsUrl: null },
    gateway: { port: 0, webDist: WEB_DIST },
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL },
  });
  cleanups.push(() => platform.stop());
  return platform;
}

async function runLighthouse(baseUrl: string, reportDir: string): Promise<{ rows: AuditRow[]; version: string }> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
    logLevel: 'silent',
  });
  cleanups.push(async () => {
    chrome.kill();
  });

  const rows: AuditRow[] = [];
  let version = '';
  for (const formFactor of AUDIT_FORM_FACTORS) {
    for (const urlPath of AUDIT_PATHS) {
      const started = performance.now();
      const baseName = `${formFactor}${urlPath === '/' ? '-landing' : urlPath.replace(/[^a-z0-9]+/gi, '-')}`;
      // Lighthouse now and then loses the trace (NO_NAVSTART, NO_FCP); one more try usually gets it.
      let lastError: unknown;
      for (let attempt = 1; attempt <= LIGHTHOUSE_ATTEMPTS; attempt++) {
        try {
          const lhr = await auditOnce(new URL(urlPath, baseUrl).href, chrome.port, formFactor, path.join(reportDir, baseName));
          version = lhr.lighthouseVersion;
          rows.push(toRow(urlPath, formFactor, lhr));
          lastError = undefined;
          break;
        } catch (error) {
          lastError = error;
          console.warn(`  lighthouse ${formFactor} ${urlPath}: attempt ${attempt} failed: ${(error as Error).message}`);
        }
      }
      if (lastError) rows.push(failedRow(urlPath, formFactor, (lastError as Error).message));
      console.log(`  lighthouse ${formFactor} ${urlPath}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  }
  return { rows, version };
}

/** One Lighthouse run; writes `<reportBase>.html` and `.json` and returns the result. */
async function auditOnce(url: string, port: number, formFactor: FormFactor, reportBase: string): Promise<Result> {
  const flags: Flags = { port, output: ['html', 'json'], logLevel: 'error', onlyCategories: [...CATEGORIES] };
  const config: Config | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
  const result = await lighthouse(url, flags, config);
  if (!result) throw new Error('Lighthouse returned no result');
  if (result.lhr.runtimeError) throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
  const reports = Array.isArray(result.report) ? result.report : [result.report];
  fs.writeFileSync(`${reportBase}.html`, reports[0] ?? '');
  fs.writeFileSync(`${reportBase}.json`, reports[1] ?? JSON.stringify(result.lhr));
  return result.lhr;
}

function failedRow(urlPath: string, formFactor: FormFactor, message: string): AuditRow {
  return {
    path: urlPath,
    formFactor,
    scores: { performance: null, accessibility: null, 'best-practices': null, seo: null },
    lcpMs: null,
    tbtMs: null,
    cls: null,
    warnings: [`Lighthouse failed ${LIGHTHOUSE_ATTEMPTS} times: ${message}`],
    failedAudits: [],
  };
}

function toRow(urlPath: string, formFactor: FormFactor, lhr: Result): AuditRow {
  const score = (id: string) => {
    const value = lhr.categories[id]?.score;
    return typeof value === 'number' ? Math.round(value * 100) : null;
  };
  const metric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    return typeof value === 'number' ? value : null;
  };
  // Audits that cost points in the scored categories, for the reader to start from.
  const failedAudits = CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
      .map((audit) => `${category}: ${audit!.id} (${audit!.displayValue || `score ${Math.round((audit!.score ?? 0) * 100)}`})`),
  );
  return {
    path: urlPath,
    formFactor,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
    },
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    warnings: lhr.runWarnings ?? [],
    failedAudits: [...new Set(failedAudits)],
  };
}

async function measureLandingScripts(baseUrl: string): Promise<ScriptChunk[]> {
  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  const context = await browser.newContext();
  const page = await context.newPage();
  const pending: Promise<ScriptChunk | null>[] = [];
  page.on('response', (response) => {
    const request = response.request();
    const url = new URL(response.url());
    if (request.resourceType() !== 'script' && !url.pathname.endsWith('.js')) return;
    pending.push(
      response.body().then(
        (body) => ({ url: url.pathname, rawBytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length }),
        () => null,
      ),
    );
  });
  await page.goto(new URL('/', baseUrl).href, { waitUntil: 'networkidle' });
  // Let lazily imported chunks the first render asks for arrive.
  await page.waitForTimeout(1000);
  await page.waitForLoadState('networkidle');
  const chunks = (await Promise.all(pending)).filter((chunk): chunk is ScriptChunk => chunk !== null);
  await context.close();
  return chunks.sort((a, b) => b.gzipBytes - a.gzipBytes);
}

// ---------------------------------------------------------------------------------------------------------------
// Printing

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

function printTable(headers: string[], rows: string[][], alignRight: boolean[]): void {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (alignRight[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ');
  console.log(line(headers));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

function printLighthouse(rows: AuditRow[]): void {
  const score = (value: number | null, aim?: number) => {
    if (value === null) return 'n/a';
    return aim === undefined ? String(value) : `${value} ${verdict(value >= aim)}`;
  };
  printTable(
    ['URL', 'device', 'performance', 'accessibility', 'best-practices', 'SEO', 'LCP', 'TBT', 'CLS'],
    rows.map((row) => [
      row.path,
      row.formFactor,
      score(row.scores.performance, AIMS.performance),
      score(row.scores.accessibility, AIMS.accessibility),
      score(row.scores['best-practices']),
      score(row.scores.seo),
      row.lcpMs === null ? 'n/a' : `${(row.lcpMs / 1000).toFixed(2)} s`,
      row.tbtMs === null ? 'n/a' : `${Math.round(row.tbtMs)} ms`,
      row.cls === null ? 'n/a' : row.cls.toFixed(3),
    ]),
    [false, false, true, true, true, true, true, true, true],
  );
  console.log(`Aims: performance >= ${AIMS.performance}, accessibility ${AIMS.accessibility}.`);
  for (const row of rows) {
    if (!row.failedAudits.length && !row.warnings.length) continue;
    console.log(`\n${row.path} (${row.formFactor}): audits scoring below 90, and warnings`);
    for (const audit of row.failedAudits) console.log(`  - ${audit}`);
    for (const warning of row.warnings) console.log(`  ! ${warning}`);
  }
}

/** What is over budget, one line each; empty when everything is within it. A row Lighthouse could not score counts as not measured. */
function budgetProblems(rows: AuditRow[], chunks: ScriptChunk[]): { over: string[]; unmeasured: string[] } {
  const over: string[] = [];
  const unmeasured: string[] = [];
  for (const row of rows) {
    const name = `${row.path} (${row.formFactor})`;
    const { performance: perf, accessibility } = row.scores;
    if (perf === null || accessibility === null) unmeasured.push(`${name}: Lighthouse gave no score`);
    if (accessibility !== null && accessibility < AIMS.accessibility)
      over.push(`${name}: accessibility ${accessibility} < ${AIMS.accessibility}`);
    if (row.path === '/' && row.formFactor === 'mobile' && perf !== null && perf < AIMS.performance) {
      over.push(`${name}: performance ${perf} < ${AIMS.performance}`);
    }
  }
  const landingKb = chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0) / 1024;
  if (!chunks.length) unmeasured.push('/: no script was loaded');
  if (landingKb > AIMS.landingJsGzipKb) over.push(`/: ${kb(landingKb * 1024)} KB of JavaScript (gzip) > ${AIMS.landingJsGzipKb} KB`);
  return { over, unmeasured };
}

function printScripts(chunks: ScriptChunk[]): void {
  const totalGzip = chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
  const totalRaw = chunks.reduce((sum, chunk) => sum + chunk.rawBytes, 0);
  printTable(
    ['gzip KB', 'raw KB', 'script'],
    chunks.map((chunk) => [kb(chunk.gzipBytes), kb(chunk.rawBytes), chunk.url]),
    [true, true, false],
  );
  console.log(
    `Landing route JavaScript: ${chunks.length} scripts, ${kb(totalRaw)} KB raw, ${kb(totalGzip)} KB gzip (level 9); ` +
      `aim <= ${AIMS.landingJsGzipKb} KB gzip: ${verdict(totalGzip / 1024 <= AIMS.landingJsGzipKb)}`,
  );
}

async function main(): Promise<void> {
  checkPrerequisites();
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-web-'));
  const platform = await startPlatform();
  console.log(`audit:web: web/dist served by the embedded platform at ${platform.url}`);

  const { rows, version } = await runLighthouse(platform.url, reportDir);
  const chunks = await measureLandingScripts(platform.url);

  console.log(`\nLighthouse ${version}, ${path.basename(CHROMIUM_PATH)} headless; mobile = default config, desktop = desktop config\n`);
  printLighthouse(rows);
  console.log('\nJavaScript loaded by / (signed out)\n');
  printScripts(chunks);
  console.log(`\nFull Lighthouse reports: ${reportDir}`);

  const { over, unmeasured } = budgetProblems(rows, chunks);
  for (const problem of unmeasured) console.error(`audit:web: not measured: ${problem}`);
  for (const problem of over) console.error(`audit:web: over budget: ${problem}`);
  if (!over.length && !unmeasured.length) console.log('\naudit:web: within budget.');
  process.exitCode = unmeasured.length ? EXIT.notMeasured : over.length ? EXIT.overBudget : EXIT.withinBudget;
}

main()
  .catch((error: unknown) => {
    console.error('audit:web failed:', error);
    process.exitCode = EXIT.notMeasured;
  })
  .finally(async () => {
    await cleanUp();
    // Chromium's and the platform's handles are closed; anything left over must not keep the report hanging.
    setTimeout(() => process.exit(), 500).unref();
  });
