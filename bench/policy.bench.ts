/**
 * `npm run bench:policy`: the lexical stage of the content policy on 100 KB inputs — benign prose, text in every
 * product language, and adversarial inputs (one letter or digit repeated, spelled-out letters, dots, mixed-script
 * lookalikes, dense matches) — against a baseline measured in the same run on the same input:
 * `text.normalize('NFKC').toLowerCase()` and a `split(/\s+/)`. Prints the median milliseconds per 100 KB and the ratio.
 * Aim: every input well under 50 ms per 100 KB, and the ratio roughly flat across inputs (linear time, no blow-up).
 * BENCH_RUNS (default 30) sets how many timed runs each input gets.
 */
import { performance } from 'node:perf_hooks';
import { createLexicalStage } from '../services/policy/src/lexical-stage';

const SIZE = 100 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const AIM_MS = 50;

const PROSE =
  'She kissed him slowly by the fire while the snow fell outside, and they talked about the summer they met in Lisbon. ' +
  'The old captain, a 45-year-old woman with a scar, poured two glasses of wine and laughed at the minor scratches on her ship. ';

const MIXED = [
  'Two consenting adults share a sensual evening in Paris. ',
  'Dos adultos pasan una noche romántica en Madrid. ',
  'Deux adultes passent une soirée romantique à Lyon. ',
  'Zwei Erwachsene verbringen einen romantischen Abend in Berlin. ',
  'Двое взрослых проводят романтический вечер в Москве. ',
  'दो वयस्क दिल्ली में एक रोमांटिक शाम बिताते हैं। ',
  '两个成年人在上海度过了一个浪漫的夜晚。',
  '두 성인이 서울에서 낭만적인 저녁을 보낸다. ',
  'Dois adultos passam uma noite romântica em Lisboa. ',
].join('');

/** Repeats `unit` until the UTF-8 size reaches `size` (100 KB). */
function fill(unit: string, size = SIZE): string {
  const bytes = Buffer.byteLength(unit);
  return unit.repeat(Math.ceil(size / bytes));
}

const INPUTS: [string, string][] = [
  ['benign English prose', fill(PROSE)],
  ['benign English prose, 1 MB (linearity)', fill(PROSE, 10 * SIZE)],
  ['all nine languages', fill(MIXED)],
  ['"a" repeated', fill('a')],
  ['"1" repeated', fill('1')],
  ['"." repeated', fill('.')],
  ['spelled-out letters "a "', fill('a ')],
  ['spelled-out digits "1 "', fill('1 ')],
  ['dotted letters "s.e.x."', fill('s.e.x.')],
  ['Cyrillic lookalikes "nudе "', fill('nud\u0435 ')],
  ['Russian all-lookalike "сех "', fill('\u0441\u0435\u0445 ')],
  ['Han numbers "十二十二"', fill('十二十二')],
  ['copulas "is 1 "', fill('is 1 ')],
  ['ages "aged 12 "', fill('aged 12 ')],
  ['ages "fourteen years old "', fill('fourteen years old ')],
  ['Han ages "十二岁"', fill('十二岁')],
  ['Korean ages "열두 살 "', fill('열두 살 ')],
  ['refused early "nude kid "', fill('nude kid ')],
  ['sexual words, no risk "sexy nude "', fill('sexy nude ')],
  ['benign traps "sexy minor key "', fill('sexy minor key ')],
  ['zero-width "a\\u200b"', fill('a\u200b')],
  ['leet "s3x0 "', fill('s3x0 ')],
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(run: () => unknown): number {
  for (let i = 0; i < 3; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

function main(): void {
  const buildStarted = performance.now();
  const stage = createLexicalStage();
  console.log(`lexical stage built in ${(performance.now() - buildStarted).toFixed(0)} ms (once per process)\n`);
  console.log(
    `${'input'.padEnd(40)} ${'KB'.padStart(6)} ${'lexical ms/100KB'.padStart(17)} ${'baseline'.padStart(9)} ${'ratio'.padStart(7)}  verdict`,
  );
  let worst = 0;
  for (const [name, text] of INPUTS) {
    const kb = Buffer.byteLength(text) / 1024;
    const per100 = 100 / kb;
    const lexical = time(() => stage.check(text)) * per100;
    const baseline = time(() => text.normalize('NFKC').toLowerCase().split(/\s+/)) * per100;
    const verdict = stage.check(text);
    worst = Math.max(worst, lexical);
    const shown = verdict.allowed ? 'allowed' : `refused (${verdict.category})`;
    console.log(
      `${name.padEnd(40)} ${kb.toFixed(0).padStart(6)} ${lexical.toFixed(2).padStart(17)} ${baseline.toFixed(2).padStart(9)} ${(lexical / baseline).toFixed(1).padStart(6)}x  ${shown}`,
    );
  }
  console.log(`\nworst: ${worst.toFixed(2)} ms per 100 KB (aim: under ${AIM_MS} ms)`);
  if (worst >= AIM_MS) process.exitCode = 1;
}

main();
