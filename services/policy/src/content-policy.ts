import { AppError } from '@app/schema';
import { type LexicalStage, lexicalStage } from './lexical-stage';
import type { PolicyCategory } from './lexicons/lexicon';
import type { ModelStage } from './model-stage';

/** Where a text came from: refusals are counted per path, and operators alert on them. */
export const POLICY_PATHS = [
  'image.prompt',
  'image.negativePrompt',
  'chat.message',
  'chat.title',
  'chat.reply',
  'chat.summary',
  'character',
  'card.import',
  'story',
  'story.passage',
  'story.summary',
  'report',
] as const;
export type PolicyPath = (typeof POLICY_PATHS)[number];

/** Why a text was refused: a hard line, or (fail-closed) a model check that could not be made. */
export type RefusalReason = PolicyCategory | 'unavailable';

/** The member-facing explanations, in English; clients translate by `details.policyCategory`. */
export const REFUSAL_MESSAGES: Record<RefusalReason, string> = {
  minors: 'Sexual content involving minors, or characters who look or act like minors, is never allowed.',
  real_person: 'Sexual content about real, named people is not allowed.',
  non_consent: 'Non-consensual sexual content is not allowed.',
  unavailable: 'This text could not be checked against the content rules right now. Please try again in a moment.',
};

export interface PolicyVerdict {
  allowed: boolean;
  reason: RefusalReason | null;
  /** Which stage decided a refusal. */
  stage: 'lexical' | 'model' | null;
  /** Matched entries or model categories, for the refusal record (never shown to members). */
  evidence: string[];
}

/** What is recorded about a refusal; the text only when the operator keeps it (POLICY_RETAIN_REFUSED_TEXT). */
export interface Refusal {
  path: PolicyPath;
  reason: RefusalReason;
  stage: 'lexical' | 'model';
  userId: string | null;
  evidence: string[];
  text: string | null;
}

export interface PolicyContext {
  path: PolicyPath;
  userId: string | null;
  signal?: AbortSignal;
  /** false when the lexical stage already ran elsewhere (a card, in its worker thread). */
  lexical?: boolean;
}

export interface ContentPolicyOptions {
  lexical?: LexicalStage;
  /** Stage 2, when the operator configured a moderation model. */
  model?: ModelStage | null;
  /** Keep the refused text in the refusal record (off by default: it may be exactly what must not be kept). */
  retainText?: boolean;
  /** Records a refusal (an event on the stream); a failure to record never turns a refusal into an acceptance. */
  onRefusal?: (refusal: Refusal) => Promise<void> | void;
}

const ALLOWED: PolicyVerdict = { allowed: true, reason: null, stage: null, evidence: [] };

/**
 * The platform's hard lines (TRUST-AND-SAFETY §18) applied to every text that drives generation or is shown to
 * others: the offline lexical stage always, then the moderation model when one is configured. One instance per
 * service; services call `assertAllowed` with the path the text came from.
 */
export class ContentPolicy {
  private readonly lexical: LexicalStage;
  private readonly model: ModelStage | null;

  constructor(private readonly options: ContentPolicyOptions = {}) {
    this.lexical = options.lexical ?? lexicalStage;
    this.model = options.model ?? null;
  }

  /** The lexical stage alone, synchronously: for checks on a hot path (a reply's text at every flush). */
  checkNow(text: string): PolicyVerdict {
    const verdict = this.lexical.check(text);
    return verdict.allowed ? ALLOWED : { allowed: false, reason: verdict.category, stage: 'lexical', evidence: verdict.evidence };
  }

  /** Both stages over the texts (joined, so a phrase split across two fields is still read whole). */
  async check(texts: readonly (string | null | undefined)[], context: PolicyContext): Promise<PolicyVerdict> {
    const text = joinTexts(texts);
    if (!text.trim()) return ALLOWED;
    let verdict = context.lexical === false ? ALLOWED : this.checkNow(text);
    if (verdict.allowed && this.model) {
      const judged = await this.model.check(text, context.signal);
      if (!judged.allowed)
        verdict = { allowed: false, reason: judged.category ?? 'unavailable', stage: 'model', evidence: judged.evidence };
    }
    if (!verdict.allowed) await this.record(verdict, text, context);
    return verdict;
  }

  /** Refuses with CONTENT_REJECTED (nothing stored, nothing charged, nothing sent to a provider: callers check first). */
  async assertAllowed(texts: readonly (string | null | undefined)[], context: PolicyContext): Promise<void> {
    const verdict = await this.check(texts, context);
    if (!verdict.allowed) throw contentRejected(verdict.reason!);
  }

  /** Records a refusal decided elsewhere with `checkNow` (a reply stopped mid-stream). */
  async recordRefusal(verdict: PolicyVerdict, text: string, context: PolicyContext): Promise<void> {
    if (!verdict.allowed) await this.record(verdict, text, context);
  }

  private async record(verdict: PolicyVerdict, text: string, context: PolicyContext): Promise<void> {
    const refusal: Refusal = {
      path: context.path,
      reason: verdict.reason!,
      stage: verdict.stage!,
      userId: context.userId,
      evidence: verdict.evidence.slice(0, 10),
      text: this.options.retainText ? text.slice(0, 4000) : null,
    };
    try {
      await this.options.onRefusal?.(refusal);
    } catch {
      // The refusal stands; the record is best effort (the caller's logs still show the CONTENT_REJECTED answer).
    }
  }
}

/** The error every refusal answers with; `details.policyCategory` lets clients show the reason in the member's language. */
export function contentRejected(reason: RefusalReason): AppError {
  return new AppError('CONTENT_REJECTED', REFUSAL_MESSAGES[reason], { policyCategory: reason });
}

/**
 * Every string inside a value (a card's lorebook entries and extensions included), depth-first. A value with more
 * than `limit` parts is refused rather than checked in part.
 */
export function collectTexts(value: unknown, limit = 200_000): string[] {
  const texts: string[] = [];
  const stack: unknown[] = [value];
  let visited = 0;
  while (stack.length > 0 && visited++ < limit) {
    const next = stack.pop();
    if (typeof next === 'string') texts.push(next);
    else if (Array.isArray(next)) for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
    else if (next && typeof next === 'object') {
      // Keys too: an extension's key is free text a card author chose.
      const entries = Object.entries(next as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i]![1], entries[i]![0]);
    }
  }
  if (stack.length > 0) throw new AppError('VALIDATION_FAILED', 'This has too many fields to check against the content rules.');
  return texts;
}

function joinTexts(texts: readonly (string | null | undefined)[]): string {
  return texts.filter((text): text is string => typeof text === 'string' && text.length > 0).join('\n');
}
