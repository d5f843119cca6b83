// First: workspace packages must resolve to the right files before they load (see the module).
import './worker-module-aliases';
import { findUnstorableText } from '@app/kit';
import { collectTexts, contentRejected, lexicalStage } from '@app/policy';
import { AppError, type ErrorBody } from '@app/schema';
import { CardError, type CharacterCardData, parseCharacterCard } from './character-card';
import { stripPngMetadata } from './png-chunks';

/** A card read in a worker thread: its data and avatar, or the error to answer with (errors do not cross threads intact). */
export type CardParseOutcome =
  | { ok: true; data: CharacterCardData; avatarPng: Uint8Array | null }
  /** `evidence`: what the content rules matched, for the refusal record. */
  | { ok: false; error: ErrorBody; evidence?: string[] };

/**
 * Runs in a worker thread: decodes the file, walks its PNG chunks, parses and validates the card, checks it
 * against the content rules, and strips metadata from its image. Each step is linear but adds up to seconds
 * for an 8 MB card, which would stall every other request on the event loop.
 */
export default function readCardFile(fileBase64: string): CardParseOutcome {
  try {
    const card = parseCharacterCard(Buffer.from(fileBase64, 'base64'));
    // The bus only saw base64: text the database cannot store is found here, before anything is written.
    const unstorable = findUnstorableText(card.data);
    if (unstorable) {
      const field = unstorable.path.length > 0 ? unstorable.path.join('.') : 'text';
      return { ok: false, error: { code: 'VALIDATION_FAILED', message: `The card's ${field} ${unstorable.problem}.` } };
    }
    // Every text of the card, lorebook entries and extensions included: a published card is shown to others.
    const verdict = lexicalStage.check(collectTexts(card.data).join('\n'));
    if (!verdict.allowed) return { ok: false, error: contentRejected(verdict.category!).toBody(), evidence: verdict.evidence };
    // Location and other metadata chunks never reach storage (TRUST-AND-SAFETY).
    return { ok: true, data: card.data, avatarPng: card.image ? stripPngMetadata(card.image) : null };
  } catch (error) {
    if (error instanceof CardError) return { ok: false, error: { code: 'VALIDATION_FAILED', message: error.message } };
    if (error instanceof AppError) return { ok: false, error: error.toBody() };
    throw error;
  }
}
