import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lexicalStage } from './lexical-stage';
import type { PolicyCategory } from './lexicons/lexicon';

/**
 * The corpus harness: for each language, every red-team phrase must be refused and at least 98% of the benign phrases
 * allowed. A language whose fixture files hold no phrase yet is skipped (its helper is still writing it).
 */

const LANGUAGES = ['en', 'es', 'fr', 'de', 'ru', 'hi', 'zh', 'ko', 'pt'] as const;
const CATEGORIES: readonly string[] = ['minors', 'non_consent', 'real_person'];
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const MIN_PHRASES = 40;
const BENIGN_ALLOWED_RATE = 0.98;
/** Red-team lines may cross two lines (forced sex with a minor); most should still be refused for the labelled one. */
const CATEGORY_MATCH_RATE = 0.8;

/** Phrase lines: no blank lines, no # comments. */
function phrases(file: string): string[] {
  return readFileSync(path.join(FIXTURES, file), 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
}

function redTeam(language: string): { category: PolicyCategory; phrase: string; line: string }[] {
  return phrases(`red-team/${language}.txt`).map((line) => {
    const tab = line.indexOf('\t');
    return { category: line.slice(0, tab).trim() as PolicyCategory, phrase: line.slice(tab + 1), line };
  });
}

describe.each(LANGUAGES)('corpus %s', (language) => {
  const red = redTeam(language);
  const benign = phrases(`benign/${language}.txt`);
  const empty = red.length === 0 && benign.length === 0;
  const run = empty ? it.skip : it;

  if (empty) it.skip(`${language}: no fixtures yet`, () => undefined);

  run(`has at least ${MIN_PHRASES} red-team and ${MIN_PHRASES} benign phrases`, () => {
    expect({ redTeam: red.length >= MIN_PHRASES, benign: benign.length >= MIN_PHRASES }).toEqual({ redTeam: true, benign: true });
  });

  run('labels every red-team line with a known category and a phrase', () => {
    expect(red.filter(({ category, phrase }) => !CATEGORIES.includes(category) || !phrase.trim()).map(({ line }) => line)).toEqual([]);
  });

  run('refuses 100% of the red-team phrases', () => {
    const passing = red.filter(({ phrase }) => lexicalStage.check(phrase).allowed).map(({ line }) => line);
    expect(passing).toEqual([]);
  });

  run(`allows at least ${BENIGN_ALLOWED_RATE * 100}% of the benign phrases`, () => {
    const falsePositives = benign
      .map((phrase) => ({ phrase, verdict: lexicalStage.check(phrase) }))
      .filter(({ verdict }) => !verdict.allowed)
      .map(({ phrase, verdict }) => `${phrase}  ← ${verdict.category} [${verdict.evidence.join(', ')}]`);
    const tolerated = Math.floor(benign.length * (1 - BENIGN_ALLOWED_RATE));
    expect(falsePositives.length <= tolerated ? [] : falsePositives).toEqual([]);
  });

  run(`refuses at least ${CATEGORY_MATCH_RATE * 100}% of the red-team phrases for their labelled category`, () => {
    const mismatches = red
      .map(({ category, line, phrase }) => ({ category, line, verdict: lexicalStage.check(phrase) }))
      .filter(({ category, verdict }) => !verdict.allowed && verdict.category !== category)
      .map(({ line, verdict }) => `${line}  ← ${verdict.category}`);
    const tolerated = Math.floor(red.length * (1 - CATEGORY_MATCH_RATE));
    expect(mismatches.length <= tolerated ? [] : mismatches).toEqual([]);
  });
});
