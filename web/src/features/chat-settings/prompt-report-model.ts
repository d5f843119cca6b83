/** How a reply's prompt report becomes the context bar: the share of the model's context each part took. */

export interface PromptReportValue {
  contextTokens: number;
  replyTokens: number;
  promptTokens: number;
  characterTokens: number;
  summaryTokens: number;
  messagesIncluded: number;
  messagesTotal: number;
  messageTokens: number;
  firstIncludedSeq?: number | null;
  lore: readonly { label: string; tokens: number; keys: readonly string[] }[];
  loreSkipped: readonly { label: string; reason: string }[];
}

export const CONTEXT_SEGMENTS = ['character', 'summary', 'lore', 'messages', 'reply', 'free'] as const;
export type ContextSegment = (typeof CONTEXT_SEGMENTS)[number];

export interface ContextPart {
  segment: ContextSegment;
  tokens: number;
  /** Share of the bar, 0 to 1. */
  share: number;
}

/**
 * The bar's parts in order. The prompt's small fixed overhead (message framing) counts as the character's part;
 * a prompt over the context (the newest message is always sent) makes the bar as long as what was used.
 */
export function contextParts(report: PromptReportValue): ContextPart[] {
  const lore = report.lore.reduce((sum, entry) => sum + entry.tokens, 0);
  const character = Math.max(0, report.promptTokens - report.summaryTokens - lore - report.messageTokens);
  const used = report.promptTokens + report.replyTokens;
  const free = Math.max(0, report.contextTokens - used);
  const tokens: Record<ContextSegment, number> = {
    character,
    summary: report.summaryTokens,
    lore,
    messages: report.messageTokens,
    reply: report.replyTokens,
    free,
  };
  const total = Math.max(report.contextTokens, used, 1);
  return CONTEXT_SEGMENTS.map((segment) => ({ segment, tokens: tokens[segment], share: tokens[segment] / total }));
}

/** Messages of the branch that reached the model only through the summary, or not at all. */
export function messagesLeftOut(report: PromptReportValue): number {
  return Math.max(0, report.messagesTotal - report.messagesIncluded);
}
