/**
 * The contract every language's term list follows. The lexical stage (../lexical-stage.ts) compiles all lexicons into
 * one automaton; this file is the only thing a lexicon author needs to read.
 *
 * How entries are written:
 * - Lower-case, as a native speaker types it, accents and native script kept ("niña", "ребёнок", "小学生"). The engine
 *   folds entries and text the same way (NFKC, case, accents, confusables, zero-width, leetspeak), so do not list
 *   spelling tricks ("s3x", "n.u.d.e") — the engine undoes them. Do list real spelling variants and slang.
 * - "word" matches a whole word. "stem*" matches every word starting with the stem: use it for inflection
 *   ("vergewaltig*", "изнасил*", "violad*"), never for stems that begin common innocent words.
 * - "two words" matches those words in order, separated by spaces, hyphens or punctuation.
 * - In a lexicon with `wordBoundaries: false` (Chinese; Korean particles attach to nouns) entries match anywhere as
 *   characters; keep them specific enough not to hit inside innocent words.
 *
 * How the engine decides (so authors know what each list is for):
 * - `absolute`: refused alone, whatever else the text says.
 * - A `sexual` entry within a window of a `minor` entry, an age under 18, a `nonConsent` entry, a real person's name
 *   or a `realPersonCue`, all of the SAME lexicon (or of the shared international lexicon), is refused with that
 *   category. Pairing within one language keeps "kind" (German: child) from colliding with English "kind".
 * - `benign` phrases switch off the entries they contain ("minor key", "kid gloves", "teenage mutant ninja turtles").
 *
 * Additions (all optional; the engine works without them):
 * - "*" is read only at the end of an entry ("stem*"); a phrase's stem is its last word ("young girl*").
 * - A benign phrase switches off the entries that lie inside it, of every lexicon, not only its own: the words are
 *   innocent whatever language claimed them (English "kind of" keeps German "Kind" from pairing with an international
 *   "sex"). An entry reaching past the phrase still counts ("未满十八" is not switched off by "十八岁").
 * - Real people's names (any lexicon's `realPeople`, and the operator's additions) pair with sexual entries of every
 *   lexicon; everything else pairs within its own lexicon and the international one.
 * - `suffixes`, `ages.tens`, `ages.copulas`, `ages.units`: see their comments.
 */

export type PolicyLanguage = 'en' | 'es' | 'fr' | 'de' | 'ru' | 'hi' | 'zh' | 'ko' | 'pt';

export type PolicyCategory = 'minors' | 'non_consent' | 'real_person';

export interface Lexicon {
  /** ISO 639-1 code, or 'intl' for terms shared by every language (sex, nsfw, porn, hentai, loli). */
  language: PolicyLanguage | 'intl';
  /** false when words are not separated by spaces, or particles attach to them (zh, ko): entries match as characters. */
  wordBoundaries: boolean;
  /** Sexual terms: acts, body parts in a sexual sense, nudity, arousal, pornography, slang. */
  sexual: string[];
  /** Words that make a person a minor: child, kid, teen, preteen, toddler, "little girl", "young-looking", loli. */
  minor: string[];
  /** School-age terms that imply a minor: schoolgirl, "high school student", "7th grader", "middle school". */
  school: string[];
  /** Non-consent: rape and its inflections, forced, drugged, unconscious, asleep, "against her will", coerced. */
  nonConsent: string[];
  /** Words that say the target is a real, identifiable person: celebrity, deepfake, "famous actress", "my coworker". */
  realPersonCues: string[];
  /** Real public figures commonly targeted, written as this language's press writes them (transliterations). */
  realPeople: string[];
  /** Refused alone: child sexual abuse terms, "child porn", "rape" (category says which line it crosses). */
  absolute: { term: string; category: PolicyCategory }[];
  /** Innocent phrases containing risky words; entries inside them never count (in any lexicon). */
  benign: string[];
  ages: AgeGrammar;
  /**
   * Optional. Endings the engine adds to the last word of every entry that is not a stem, real-person cue, name or age word, e.g.
   * English ['s', 'es', 'ed', 'd', 'ing'] ("undress" also matches "undresses", "rape" also "raped" and "raping": a
   * final "e" is dropped before an ending that starts with a vowel). Words shorter than 3 letters get none.
   */
  suffixes?: string[];
}

/** How this language writes an age, so "12 años", "zwölfjährige", "十二岁", "열두 살", "fourteen-year-old" are read as 12-14. */
export interface AgeGrammar {
  /** Every written form of the numbers 1-17 used in ages (cardinals; the genitive or compound stems too). Digits are built in. */
  numbers: Record<string, number>;
  /** Words that make a preceding number an age: "years old", "year old", "yo", "y/o", "años", "jahre", "лет", "岁", "살". */
  after: string[];
  /** Words that make a following number an age: "aged", "age", "âgée de", "im alter von". */
  before: string[];
  /**
   * One-word age forms built from a number, with {n} where the number goes: "{n}-year-old", "{n}jährig*",
   * "{n}летн*", "{n}岁". The engine fills {n} with digits and every form in `numbers`.
   * (How: the part after {n} is read like an `after` word that may also be joined to the number, or, when {n} ends the
   * form, the part before it like a `before` word. A number must not touch another digit or number character, so
   * "112" is not 12 and "二十岁" is not 十岁.)
   */
  compounds: string[];
  /**
   * Optional. Number words that, just before a number 1-17 (with a space, a hyphen or nothing between), make a larger
   * number: "twenty" ("twenty-five years old" is 25, not 5), "treinta y", "vingt et", "스물" (스물두 살 is 22). Write the
   * connector in if the language uses one. Entries of `numbers` with a value of 18 or more are read as tens too.
   */
  tens?: string[];
  /**
   * Optional. Words that make a following number an age unless a `units` word follows it: "she is 14", "he just turned
   * 15", "only 13" (but not "I am 16 hours into this game"). They apply to digits and to number words of 10 or more
   * ("is one of", "just two of us" stay innocent).
   */
  copulas?: string[];
  /** Optional. Words that, right after a number, make it a measure rather than an age: "hours", "km", "times", "percent". */
  units?: string[];
}
