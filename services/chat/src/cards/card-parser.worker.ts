// First: workspace packages must resolve to the right files before they load (see the module).
import './worker-module-aliases';
import { assertAllowedContent, findUnstorableText } from '@app/kit';
import { AppError, type ErrorBody } from '@app/schema';
import { CardError, type CharacterCardData, parseCharacterCard } from './character-card';
import { stripPngMetadata } from './png-chunks';

/** A card read in a worker thread: its data and avatar, or the error to answer with (errors do not cross threads intact). */
export type CardParseOutcome = { ok: true; data: CharacterCardData; avatarPng: Uint8Array | null } | { ok: false; error: ErrorBody };

/** The text of a card that the platform's content rules apply to. */
function cardTexts(data: CharacterCardData): string[] {
  return [
    data.name,
    data.description,
    data.personality,
    data.scenario,
    data.first_mes,
    data.mes_example,
    data.system_prompt,
    data.post_history_instructions,
    data.creator_notes,
    ...data.alternate_greetings,
    ...data.tags,
  ];
}

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
    assertAllowedContent(...cardTexts(card.data));
    // Location and other metadata chunks never reach storage (TRUST-AND-SAFETY).
    return { ok: true, data: card.data, avatarPng: card.image ? stripPngMetadata(card.image) : null };
  } catch (error) {
    if (error instanceof CardError) return { ok: false, error: { code: 'VALIDATION_FAILED', message: error.message } };
    if (error instanceof AppError) return { ok: false, error: error.toBody() };
    throw error;
  }
}
