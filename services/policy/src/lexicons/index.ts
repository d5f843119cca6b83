import { de } from './de';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { hi } from './hi';
import { intl } from './intl';
import { ko } from './ko';
import type { Lexicon } from './lexicon';
import { pt } from './pt';
import { ru } from './ru';
import { zh } from './zh';

export * from './lexicon';

/** Every language the product is offered in, plus the international terms paired with all of them. */
export const LEXICONS: readonly Lexicon[] = [intl, en, es, fr, de, ru, hi, zh, ko, pt];
