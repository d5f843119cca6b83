import { AppError } from '@app/schema';

/**
 * The platform's hard content lines (TRUST-AND-SAFETY §18), enforced server-side on chat messages, character
 * definitions, imported cards, AI replies and (with media) image prompts:
 * - no sexual content involving minors (age terms under 18, school and child terms, "young-looking"),
 * - no sexual content naming real people,
 * - no non-consent.
 * Matching is on normalised word tokens with linear scans (no backtracking patterns), so a 100 KB input is fast.
 */

export type PolicyCategory = 'minors' | 'real_person' | 'non_consent';

export interface PolicyVerdict {
  allowed: boolean;
  category: PolicyCategory | null;
  /** A member-facing explanation. */
  reason: string | null;
}

export const POLICY_REASONS: Record<PolicyCategory, string> = {
  minors: 'Sexual content involving minors, or characters who look or act like minors, is never allowed.',
  real_person: 'Sexual content about real, named people is not allowed.',
  non_consent: 'Non-consensual sexual content is not allowed.',
};

/** How close (in words) a sexual term and a risk term must be to count as one statement. */
const WINDOW = 40;

const SEXUAL = new Set([
  'sex',
  'sexy',
  'sexual',
  'sexually',
  'nude',
  'nudes',
  'naked',
  'nsfw',
  'porn',
  'porno',
  'pornographic',
  'erotic',
  'erotica',
  'fuck',
  'fucks',
  'fucked',
  'fucking',
  'cock',
  'cocks',
  'dick',
  'dicks',
  'penis',
  'pussy',
  'vagina',
  'clit',
  'clitoris',
  'cum',
  'cumming',
  'orgasm',
  'orgasms',
  'boobs',
  'tits',
  'breasts',
  'nipples',
  'nipple',
  'horny',
  'aroused',
  'arousal',
  'masturbate',
  'masturbates',
  'masturbating',
  'masturbation',
  'blowjob',
  'handjob',
  'anal',
  'lewd',
  'hentai',
  'undress',
  'undressed',
  'undressing',
  'seduce',
  'seduces',
  'seducing',
  'seductive',
  'intercourse',
  'genitals',
  'grope',
  'groped',
  'groping',
  'fondle',
  'fondled',
  'fondling',
  'molest',
  'molested',
  'molesting',
  'topless',
  'bottomless',
  'lingerie',
  'panties',
  'thong',
  'bdsm',
  'bondage',
  'kinky',
  'fetish',
  'squirt',
  'creampie',
  'threesome',
  'orgy',
  'sexting',
  'nudity',
  'xxx',
  'onlyfans',
]);

/** Minor indicators that are off-limits next to sexual terms. */
const MINOR_TERMS = new Set([
  'child',
  'children',
  'childs',
  'kid',
  'kids',
  'kiddie',
  'minor',
  'minors',
  'underage',
  'preteen',
  'preteens',
  'prepubescent',
  'pubescent',
  'teen',
  'teens',
  'teenage',
  'teenager',
  'teenagers',
  'tween',
  'tweens',
  'toddler',
  'toddlers',
  'infant',
  'schoolgirl',
  'schoolgirls',
  'schoolboy',
  'schoolboys',
  'highschooler',
  'middleschooler',
  'juvenile',
  'youngster',
  'childlike',
  'jailbait',
  'daughter',
  'stepdaughter',
  'stepson',
  'niece',
  'nephew',
  'elementary',
  'kindergarten',
  'kindergartner',
  'grader',
  'cp',
  'loli',
  'lolicon',
  'shota',
  'shotacon',
  'cub',
  'pedo',
  'pedophile',
  'paedophile',
  'pedophilia',
  'flatchested',
  'prepubescence',
  'underdeveloped',
]);

/** Two-word minor indicators (after normalisation). */
const MINOR_PHRASES = [
  ['young', 'looking'],
  ['looks', 'young'],
  ['little', 'girl'],
  ['little', 'boy'],
  ['little', 'girls'],
  ['little', 'boys'],
  ['young', 'girl'],
  ['young', 'boy'],
  ['high', 'school'],
  ['middle', 'school'],
  ['grade', 'school'],
  ['primary', 'school'],
  ['junior', 'high'],
  ['school', 'uniform'],
  ['barely', 'legal'],
  ['not', '18'],
  ['under', '18'],
  ['below', '18'],
];

/** Always blocked, whatever the context. */
const ABSOLUTE = new Map<string, PolicyCategory>([
  ['loli', 'minors'],
  ['lolicon', 'minors'],
  ['shota', 'minors'],
  ['shotacon', 'minors'],
  ['jailbait', 'minors'],
  ['pedo', 'minors'],
  ['pedophile', 'minors'],
  ['paedophile', 'minors'],
  ['pedophilia', 'minors'],
  ['rape', 'non_consent'],
  ['raped', 'non_consent'],
  ['rapes', 'non_consent'],
  ['raping', 'non_consent'],
  ['rapist', 'non_consent'],
  ['noncon', 'non_consent'],
  ['nonconsensual', 'non_consent'],
  ['non-consensual', 'non_consent'],
  ['molest', 'minors'],
  ['molested', 'minors'],
  ['molesting', 'minors'],
]);

/** Non-consent indicators that are off-limits next to sexual terms. */
const NON_CONSENT_TERMS = new Set([
  'unconscious',
  'drugged',
  'roofied',
  'passed-out',
  'unwilling',
  'forced',
  'forcing',
  'forcibly',
  'coerced',
  'coercion',
  'blackmailed',
  'blackmail',
  'resisting',
  'kidnapped',
  'abducted',
  'hypnotized',
  'mindbreak',
  'non-consent',
  'nonconsent',
]);
const NON_CONSENT_PHRASES = [
  ['against', 'her', 'will'],
  ['against', 'his', 'will'],
  ['against', 'their', 'will'],
  ['without', 'consent'],
  ['without', 'her', 'consent'],
  ['without', 'his', 'consent'],
  ['passed', 'out'],
  ['says', 'no'],
  ['said', 'no'],
  ['begging', 'to', 'stop'],
  ['tells', 'him', 'to', 'stop'],
  ['while', 'asleep'],
  ['while', 'sleeping'],
  ['while', 'she', 'sleeps'],
  ['while', 'he', 'sleeps'],
  ['in', 'her', 'sleep'],
  ['in', 'his', 'sleep'],
];

/**
 * Real people commonly targeted by sexual deepfakes (public figures). Operators can extend the list
 * (createContentPolicy({ realPeople })); names are matched as whole normalised word sequences.
 */
export const DEFAULT_REAL_PEOPLE = [
  'taylor swift',
  'emma watson',
  'scarlett johansson',
  'billie eilish',
  'ariana grande',
  'selena gomez',
  'zendaya',
  'margot robbie',
  'jennifer lawrence',
  'gal gadot',
  'kim kardashian',
  'kylie jenner',
  'kendall jenner',
  'beyonce',
  'rihanna',
  'lady gaga',
  'dua lipa',
  'miley cyrus',
  'jenna ortega',
  'millie bobby brown',
  'sydney sweeney',
  'megan fox',
  'natalie portman',
  'emma stone',
  'anne hathaway',
  'angelina jolie',
  'jennifer aniston',
  'jennifer lopez',
  'shakira',
  'nicki minaj',
  'cardi b',
  'olivia rodrigo',
  'sabrina carpenter',
  'addison rae',
  'charli damelio',
  'pokimane',
  'amouranth',
  'belle delphine',
  'alexandria ocasio-cortez',
  'kamala harris',
  'michelle obama',
  'hillary clinton',
  'donald trump',
  'joe biden',
  'barack obama',
  'elon musk',
  'mark zuckerberg',
  'vladimir putin',
  'king charles',
  'kate middleton',
  'meghan markle',
  'prince harry',
  'greta thunberg',
  'tom holland',
  'timothee chalamet',
  'harry styles',
  'justin bieber',
  'brad pitt',
  'leonardo dicaprio',
  'chris hemsworth',
  'ryan gosling',
  'keanu reeves',
  'jungkook',
  'lisa manoban',
  'jennie kim',
  'iu',
  'emma myers',
  'ice spice',
  'doja cat',
  'lana del rey',
  'bella hadid',
  'gigi hadid',
];

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i' };

/** Lower-case word tokens: NFKC, no accents or zero-width tricks, leetspeak inside words undone, "l.o.l.i" joined. */
export function tokenize(text: string): string[] {
  const normalised = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\u200b-\u200f\u2060\ufeff]/g, '')
    .toLowerCase()
    // Spelled-out words ("r a p e", "l.o.l.i") are joined; each repetition consumes exactly two characters, so this is linear.
    .replace(/(?<![a-z0-9@$!])(?:[a-z0-9@$!][.\s*_-]){2,}[a-z0-9@$!](?![a-z0-9@$!])/g, (run) => run.replace(/[.\s*_-]/g, ''));
  const tokens: string[] = [];
  let current = '';
  let letters = 0;
  const flush = () => {
    if (current) tokens.push(current);
    current = '';
    letters = 0;
  };
  for (let i = 0; i < normalised.length; i++) {
    const ch = normalised[i]!;
    const isLetter = (ch >= 'a' && ch <= 'z') || ch > '\u007f';
    const isDigit = ch >= '0' && ch <= '9';
    if (isLetter) {
      current += ch;
      letters++;
    } else if (isDigit || ch in LEET) {
      // Digits stay digits in numbers ("15"), become letters inside words ("s3x").
      current += letters > 0 && ch in LEET ? LEET[ch]! : ch;
    } else if (ch === '-' && current && /[a-z0-9]/.test(normalised[i + 1] ?? '')) {
      current += '-';
    } else {
      flush();
    }
  }
  flush();
  return tokens.flatMap((token) => (token.includes('-') ? [token, ...token.split('-').filter(Boolean)] : [token]));
}

/** Ages under 18 written as numbers next to age words: "15 years old", "15yo", "age 12", "aged 16", "16-year-old". */
function minorAgeAt(tokens: string[], i: number): boolean {
  const token = tokens[i]!;
  const compact = /^(\d{1,2})(?:yo|yrs?|y)$/.exec(token);
  if (compact) return Number(compact[1]) < 18;
  const ageFirst = /^(\d{1,2})-?(?:year|years|yr|yrs)(?:-?old)?$/.exec(token);
  if (ageFirst) return Number(ageFirst[1]) < 18;
  if (!/^\d{1,2}$/.test(token)) return false;
  const n = Number(token);
  if (n >= 18 || n < 1) return false;
  const next = tokens[i + 1] ?? '';
  const before = tokens[i - 1] ?? '';
  if (['yo', 'years', 'year', 'yrs', 'yr', 'y/o'].includes(next) || ['age', 'aged', 'ages'].includes(before)) return true;
  // "she is 14", "he just turned 15" — unless a unit follows ("I am 16 hours into the game").
  return ['is', 'am', 'was', 'turned', 'turning', 'only', 'barely', 'just'].includes(before) && !UNITS.has(next);
}

const UNITS = new Set([
  'hours',
  'hour',
  'minutes',
  'minute',
  'seconds',
  'days',
  'day',
  'weeks',
  'week',
  'months',
  'month',
  'km',
  'miles',
  'mile',
  'meters',
  'feet',
  'foot',
  'inches',
  'inch',
  'cm',
  'kg',
  'lbs',
  'pounds',
  'percent',
  'dollars',
  'euros',
  'points',
  'times',
  'levels',
  'pages',
]);

/** The word or its stem (undresses → undress, groped → grope) is in the set. */
function inSet(set: Set<string>, token: string): boolean {
  if (set.has(token)) return true;
  for (const suffix of ['es', 's', 'ed', 'd', 'ing']) {
    if (token.length > suffix.length + 2 && token.endsWith(suffix) && set.has(token.slice(0, -suffix.length))) return true;
  }
  return false;
}

function phraseAt(tokens: string[], i: number, phrase: string[]): boolean {
  for (let k = 0; k < phrase.length; k++) if (tokens[i + k] !== phrase[k]) return false;
  return true;
}

export interface ContentPolicy {
  check(text: string): PolicyVerdict;
}

export function createContentPolicy(options: { realPeople?: string[] } = {}): ContentPolicy {
  const people = (options.realPeople ?? DEFAULT_REAL_PEOPLE).map((name) => tokenize(name)).filter((words) => words.length > 0);
  return {
    check(text: string): PolicyVerdict {
      const tokens = tokenize(text);
      const sexual: number[] = [];
      const risks: { at: number; category: PolicyCategory }[] = [];
      for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i]!;
        const absolute = ABSOLUTE.get(token);
        if (absolute) return verdict(absolute);
        if (inSet(SEXUAL, token)) sexual.push(i);
        if (inSet(MINOR_TERMS, token) || minorAgeAt(tokens, i) || MINOR_PHRASES.some((phrase) => phraseAt(tokens, i, phrase))) {
          risks.push({ at: i, category: 'minors' });
        }
        if (inSet(NON_CONSENT_TERMS, token) || NON_CONSENT_PHRASES.some((phrase) => phraseAt(tokens, i, phrase))) {
          risks.push({ at: i, category: 'non_consent' });
        }
        if (people.some((name) => phraseAt(tokens, i, name))) risks.push({ at: i, category: 'real_person' });
      }
      if (sexual.length === 0 || risks.length === 0) return { allowed: true, category: null, reason: null };
      // Both lists are in order: walk them together to find a risk within WINDOW words of a sexual term.
      let s = 0;
      for (const risk of risks) {
        while (s < sexual.length - 1 && sexual[s]! < risk.at - WINDOW) s++;
        if (Math.abs(sexual[s]! - risk.at) <= WINDOW || (s + 1 < sexual.length && Math.abs(sexual[s + 1]! - risk.at) <= WINDOW)) {
          return verdict(risk.category);
        }
      }
      return { allowed: true, category: null, reason: null };
    },
  };
}

function verdict(category: PolicyCategory): PolicyVerdict {
  return { allowed: false, category, reason: POLICY_REASONS[category] };
}

export const contentPolicy = createContentPolicy();

/** Refuses text that crosses the platform's hard lines, whatever the field (chat, characters, image prompts). */
export function assertAllowedContent(...texts: (string | null | undefined)[]): void {
  const verdict = contentPolicy.check(texts.filter(Boolean).join('\n'));
  if (!verdict.allowed) throw new AppError('CONTENT_REJECTED', verdict.reason!);
}
