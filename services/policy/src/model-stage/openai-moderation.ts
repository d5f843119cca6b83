import { isJsonObject } from '@app/kit';
import { malformed, postJson } from './http';
import type { ChunkVerdict, ModelAdapter, PolicyCategory } from './types';

/**
 * OpenAI's moderation API and the servers that copy it: `POST /v1/moderations` with `{ model, input }`, answered
 * with `{ results: [{ flagged, categories, category_scores }] }`.
 *
 * The platform is for adults, so of OpenAI's categories only `sexual/minors` crosses a line here (→ `minors`).
 * OpenAI has no category for non-consent or real people; every other flagged category (`sexual`, `violence`,
 * `harassment`...) is allowed and only recorded in the evidence.
 */

/** OpenAI's moderation categories mapped to the platform's hard lines; any category not listed is allowed. */
export const OPENAI_MODERATION_CATEGORIES: Readonly<Record<string, PolicyCategory>> = Object.freeze({
  'sexual/minors': 'minors',
});

export interface OpenAiModerationOptions {
  /** The API root, without `/v1` (see normaliseModelBaseUrl). */
  root: string;
  apiKey: string | null;
  model: string;
  /** Refuse when the category's score reaches this; unset, the boolean category decides. */
  minorsScoreThreshold?: number;
}

export class OpenAiModerationAdapter implements ModelAdapter {
  readonly kind = 'openai-moderation';
  readonly model: string;
  private readonly url: string;

  constructor(private readonly options: OpenAiModerationOptions) {
    this.model = options.model;
    this.url = `${options.root}/v1/moderations`;
  }

  classify(text: string, limits: { signal: AbortSignal; timeoutMs: number }): Promise<ChunkVerdict> {
    const { apiKey, model } = this.options;
    return postJson({ url: this.url, apiKey, model, body: { model, input: text }, ...limits }, (payload) => this.read(payload));
  }

  private read(payload: Record<string, unknown>): ChunkVerdict {
    const results = payload.results;
    if (!Array.isArray(results) || results.length === 0) throw malformed('no results');
    let refused: PolicyCategory | null = null;
    const evidence: string[] = [];
    for (const result of results) {
      if (!isJsonObject(result) || !isJsonObject(result.categories)) throw malformed('a result without categories');
      const categories = result.categories;
      const scores = isJsonObject(result.category_scores) ? result.category_scores : {};
      for (const [name, category] of Object.entries(OPENAI_MODERATION_CATEGORIES)) {
        if (this.crosses(name, categories[name], scores[name])) {
          refused ??= category;
          evidence.push(`moderation flagged ${name}${scoreText(scores[name])}`);
        }
      }
      for (const [name, flagged] of Object.entries(categories)) {
        if (flagged === true && !(name in OPENAI_MODERATION_CATEGORIES)) {
          evidence.push(`moderation flagged ${name}${scoreText(scores[name])}, allowed on this platform`);
        }
      }
    }
    return { allowed: refused === null, category: refused, evidence };
  }

  /** Whether one mapped category is crossed: by its score when a threshold is set, else by its boolean. */
  private crosses(name: string, flag: unknown, score: unknown): boolean {
    const threshold = this.options.minorsScoreThreshold;
    if (threshold !== undefined) {
      if (typeof score !== 'number' || !Number.isFinite(score)) throw malformed(`no score for ${name}`);
      return score >= threshold;
    }
    if (typeof flag !== 'boolean') throw malformed(`no ${name} category`);
    return flag;
  }
}

function scoreText(score: unknown): string {
  return typeof score === 'number' && Number.isFinite(score) ? ` (score ${score.toFixed(3)})` : '';
}
