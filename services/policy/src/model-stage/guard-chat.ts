import { isJsonObject } from '@app/kit';
import { malformed, postJson } from './http';
import type { ChunkVerdict, ModelAdapter, PolicyCategory } from './types';

/**
 * A guard model behind an OpenAI-compatible `POST /v1/chat/completions` (Llama Guard 3 on Ollama, vLLM,
 * llama.cpp...). The server's chat template wraps the text in the guard prompt; the model answers `safe`, or
 * `unsafe` and a line of comma-separated hazard codes (`unsafe\nS4`, `unsafe\nS3,S12`).
 */

export interface GuardHazard {
  name: string;
  /** The platform's hard line this hazard crosses; null: allowed here, only recorded in the evidence. */
  category: PolicyCategory | null;
}

/**
 * Llama Guard 3's hazard codes (the MLCommons taxonomy; Llama Guard 4 uses the same). The platform is for
 * adults: S12 (sexual content) is allowed; S4 is sexual content involving minors and S3 includes sexual assault,
 * so they are refused. The others are outside this policy: allowed, recorded in the evidence.
 * Llama Guard 2's S3 and S4 mean the same, so it maps correctly too (its other codes differ, all allowed anyway).
 */
export const GUARD_HAZARDS: Readonly<Record<string, GuardHazard>> = Object.freeze({
  S1: { name: 'Violent Crimes', category: null },
  S2: { name: 'Non-Violent Crimes', category: null },
  S3: { name: 'Sex-Related Crimes', category: 'non_consent' },
  S4: { name: 'Child Sexual Exploitation', category: 'minors' },
  S5: { name: 'Defamation', category: null },
  S6: { name: 'Specialized Advice', category: null },
  S7: { name: 'Privacy', category: null },
  S8: { name: 'Intellectual Property', category: null },
  S9: { name: 'Indiscriminate Weapons', category: null },
  S10: { name: 'Hate', category: null },
  S11: { name: 'Suicide & Self-Harm', category: null },
  S12: { name: 'Sexual Content', category: null },
  S13: { name: 'Elections', category: null },
  S14: { name: 'Code Interpreter Abuse', category: null },
});

/** When one answer names several refused hazards, the verdict names the gravest. */
const SEVERITY: readonly PolicyCategory[] = ['minors', 'non_consent', 'real_person'];

export interface GuardChatOptions {
  /** The API root, without `/v1` (see normaliseModelBaseUrl). */
  root: string;
  apiKey: string | null;
  model: string;
  /** Overrides of GUARD_HAZARDS' categories, by code. */
  categories?: Readonly<Record<string, PolicyCategory | null>>;
}

/** What a guard model said: `safe`, or `unsafe` with the hazard codes it named (upper case, maybe none). */
export type GuardAnswer = { safe: true } | { safe: false; codes: string[] };

/**
 * Reads a Llama Guard answer, tolerant of case, spacing, punctuation and stray tokens (`UNSAFE s4, s3.`,
 * `unsafe S4<|eot_id|>`); null when the answer is neither `safe` nor `unsafe` (not a guard model).
 */
export function parseGuardAnswer(content: string): GuardAnswer | null {
  const words = content
    .replace(/<\|[^|]*\|>/g, ' ')
    .split(/[\s,;:.]+/)
    .map((word) => word.replace(/[^A-Za-z0-9]/g, ''))
    .filter(Boolean);
  const verdict = words[0]?.toLowerCase();
  if (verdict === 'safe') return { safe: true };
  if (verdict !== 'unsafe') return null;
  const codes = words
    .slice(1)
    .map((word) => word.toUpperCase())
    .filter((word) => /^S\d{1,2}$/.test(word));
  return { safe: false, codes: [...new Set(codes)] };
}

export class GuardChatAdapter implements ModelAdapter {
  readonly kind = 'guard-chat';
  readonly model: string;
  private readonly url: string;

  constructor(private readonly options: GuardChatOptions) {
    this.model = options.model;
    this.url = `${options.root}/v1/chat/completions`;
  }

  classify(text: string, limits: { signal: AbortSignal; timeoutMs: number }): Promise<ChunkVerdict> {
    const { apiKey, model } = this.options;
    const body = { model, messages: [{ role: 'user', content: text }], temperature: 0, max_tokens: 20, stream: false };
    return postJson({ url: this.url, apiKey, model, body, ...limits }, (payload, call) => {
      const content = replyText(payload);
      if (content === null) throw malformed('no reply');
      const answer = parseGuardAnswer(content);
      if (!answer) throw malformed(`not a guard verdict: "${call.quote(content)}"`);
      if (answer.safe) return { allowed: true, category: null, evidence: [] };
      // "unsafe" without a code names no hazard this policy could act on.
      if (answer.codes.length === 0) throw malformed('"unsafe" without a hazard code');
      return this.verdict(answer.codes);
    });
  }

  private verdict(codes: string[]): ChunkVerdict {
    const crossed = new Set<PolicyCategory>();
    const evidence = codes.map((code) => {
      const hazard = GUARD_HAZARDS[code];
      const category = this.options.categories && code in this.options.categories ? this.options.categories[code] : hazard?.category;
      if (category) crossed.add(category);
      const name = hazard ? ` (${hazard.name})` : ' (unknown code)';
      return `guard model: unsafe ${code}${name}${category ? '' : ', allowed on this platform'}`;
    });
    const category = SEVERITY.find((candidate) => crossed.has(candidate)) ?? null;
    return { allowed: category === null, category, evidence };
  }
}

/** The reply's text: `choices[0].message.content` (a string, or an array of text parts), or legacy `choices[0].text`. */
function replyText(payload: Record<string, unknown>): string | null {
  const choice = Array.isArray(payload.choices) ? payload.choices[0] : undefined;
  if (!isJsonObject(choice)) return null;
  const content = isJsonObject(choice.message) ? choice.message.content : choice.text;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
  }
  return null;
}
