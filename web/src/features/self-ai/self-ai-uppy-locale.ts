/**
 * Uppy's own interface strings (the restriction messages, the dialog's buttons and status bar) in the
 * member's language. The texts live in the catalogs under `selfAi.uppy.<Uppy key>` and keep Uppy's
 * `%{name}` placeholders, which i18next leaves alone; Uppy fills them in.
 */

/** Uppy keys with one text. */
export const UPPY_STRING_KEYS = [
  'exceedsSize',
  'youCanOnlyUploadFileTypes',
  'noDuplicates',
  'noMoreFilesAllowed',
  'failedToUpload',
  'noInternetConnection',
  'connectedToInternet',
  'unnamed',
  'cancel',
  'closeModal',
  'addMoreFiles',
  'addingMoreFiles',
  'dashboardWindowTitle',
  'dashboardTitle',
  'back',
  'removeFile',
  'error',
  'myDevice',
  'dropHint',
  'uploadComplete',
  'uploadPaused',
  'resumeUpload',
  'pauseUpload',
  'retryUpload',
  'cancelUpload',
  'addMore',
  'dropPasteFiles',
  'browseFiles',
  'uploading',
  'complete',
  'uploadFailed',
  'paused',
  'retry',
  'pause',
  'resume',
  'done',
  'dataUploadedOfTotal',
  'dataUploadedOfUnknown',
  'xTimeLeft',
  'upload',
  'showErrorDetails',
] as const;

/** Uppy keys whose text depends on `%{smart_count}` (catalog keys `<key>_one`, `<key>_other`, … as i18next plurals). */
export const UPPY_PLURAL_KEYS = [
  'youCanOnlyUploadX',
  'addBulkFilesFailed',
  'xFilesSelected',
  'uploadingXFiles',
  'processingXFiles',
  'filesUploadedOfTotal',
  'uploadXFiles',
  'uploadXNewFiles',
  'xMoreFilesAdded',
] as const;

export type UppyStringKey = (typeof UPPY_STRING_KEYS)[number] | (typeof UPPY_PLURAL_KEYS)[number];

/** Looks up `selfAi.uppy.<key>`; with a count, i18next picks the plural form for it. */
export type TranslateUppyString = (key: UppyStringKey, count?: number) => string;

/** Uppy's locale shape (@uppy/core's `Locale`): plural texts are indexed by what `pluralize(n)` returns. */
export interface UppyLocale {
  strings: Record<string, string | Record<number, string>>;
  pluralize: (n: number) => number;
}

/** Whole numbers that between them reach every plural category of the app's languages (few/many included). */
const PLURAL_SAMPLES = [1, 2, 0, 3, 5, 11, 21, 22, 25, 100, 101, 102, 1_000_000];

/**
 * Uppy picks a plural text by index (`pluralize(n)`); here index i is the language's i-th plural
 * category, and its text is the catalog's text for a number in that category.
 */
export function buildUppyLocale(translate: TranslateUppyString, language: string): UppyLocale {
  const rules = new Intl.PluralRules(language);
  const categories = rules.resolvedOptions().pluralCategories;
  const sampleOf = (category: Intl.LDMLPluralRule) => PLURAL_SAMPLES.find((n) => rules.select(n) === category) ?? 2;
  const strings: UppyLocale['strings'] = {};
  for (const key of UPPY_STRING_KEYS) strings[key] = translate(key);
  for (const key of UPPY_PLURAL_KEYS) {
    strings[key] = Object.fromEntries(categories.map((category, index) => [index, translate(key, sampleOf(category))]));
  }
  return {
    strings,
    pluralize: (n) => Math.max(0, categories.indexOf(rules.select(n))),
  };
}
