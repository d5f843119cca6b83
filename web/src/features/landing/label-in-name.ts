/** Lower case, punctuation and symbols as spaces, single spaces: how screen-reader users' speech commands compare. */
function normalize(text: string): string {
  return text
    .toLocaleLowerCase()
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The accessible name of a button whose visible text is shorter than its name, e.g. "I'm interested"
 * named "I'm interested in Self AI". WCAG 2.5.3 (label in name) wants the visible text inside the
 * name, so a speech user can say what they see. `name` (the translation of the longer phrase) is used
 * when it contains the visible text; when a translation words it differently, the visible text leads,
 * followed by `detail`.
 */
export function nameContainingLabel(visible: string, name: string, detail: string): string {
  return normalize(name).includes(normalize(visible)) ? name : `${visible}: ${detail}`;
}
