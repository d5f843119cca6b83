import type { PromptReport } from '@app/schema';
import type { PromptMessage } from '../providers/chat-provider';
import { estimateTokens } from '../providers/token-estimate';
import { selectLore } from './lorebook';
import { type MacroContext, expandMacros } from './macros';

/** The persona a conversation's character gives the model (a snapshot survives the character's deletion). */
export interface Persona {
  /** What `{{char}}` stands for: the card's V3 nickname, else the character's name. */
  name: string;
  description: string;
  personality: string;
  scenario: string;
  exampleDialogue: string;
  systemPrompt: string;
  postHistoryInstructions: string;
  /** The card's lorebook (`character_book`), as stored; entries are inserted when their keys come up. */
  characterBook?: unknown;
}

/** Who the member plays: `{{user}}` is their name; the description tells the character about them. */
export interface MemberPersona {
  name: string;
  description: string;
}

export interface HistoryTurn {
  seq: number;
  role: 'user' | 'assistant';
  content: string;
}

export interface PromptPlan {
  messages: PromptMessage[];
  /** The oldest turn that fit; older ones are covered only by the summary. */
  firstIncludedSeq: number | null;
  /** Turns that no longer fit and are not yet in the summary (candidates for the next summary). */
  unsummarized: HistoryTurn[];
  /** What made it into the prompt, for the member's context view. */
  report: PromptReport;
}

const DEFAULT_ASSISTANT: Persona = {
  name: 'AI Assistant',
  description: 'A friendly, helpful and creative conversation partner.',
  personality: '',
  scenario: '',
  exampleDialogue: '',
  systemPrompt: '',
  postHistoryInstructions: '',
};

export const DEFAULT_MEMBER: MemberPersona = { name: 'User', description: '' };

/** SillyTavern's default share of the context a lorebook may fill, capped so lore never crowds out the conversation. */
const LORE_SHARE = 0.25;
const LORE_MAX_TOKENS = 1024;
/** Messages scanned for lorebook keys when the book does not say. */
const LORE_SCAN_DEPTH = 4;

/** The default system prompt: what a card's own system prompt replaces, and what its `{{original}}` brings back. */
const defaultSystemPrompt = (macros: MacroContext) =>
  `You are ${macros.char}. Stay in character, reply in the first person, and keep replies vivid and concise. Never speak for ${macros.user}.`;

/** The system prompt: the character, the member they talk to, and the lorebook entries that came up. */
export function systemPromptFor(
  persona: Persona | null,
  member: MemberPersona = DEFAULT_MEMBER,
  lore: { before: string[]; after: string[] } = { before: [], after: [] },
): string {
  const p = persona ?? DEFAULT_ASSISTANT;
  const macros: MacroContext = { char: p.name, user: member.name };
  const expand = (text: string) => expandMacros(text, macros);
  const lines = [
    p.systemPrompt ? expandMacros(p.systemPrompt, { ...macros, original: defaultSystemPrompt(macros) }) : defaultSystemPrompt(macros),
    ...lore.before.map(expand),
    `Name: ${p.name}`,
  ];
  if (p.description) lines.push(`Description: ${expand(p.description)}`);
  if (p.personality) lines.push(`Traits: ${expand(p.personality)}`);
  if (p.scenario) lines.push(`Scenario: ${expand(p.scenario)}`);
  lines.push(...lore.after.map(expand));
  if (member.description.trim()) lines.push(`About ${member.name}: ${expand(member.description.trim())}`);
  if (p.exampleDialogue) lines.push(`Example dialogue:\n${expand(p.exampleDialogue)}`);
  return lines.join('\n');
}

/**
 * Builds the prompt: the character (with the lorebook entries the recent turns bring up), a rolling summary of older
 * turns, and as many recent turns as fit in the model's context after reserving room for the reply. The report says
 * what made it in.
 */
export function buildPrompt(input: {
  persona: Persona | null;
  member?: MemberPersona;
  summary: string | null;
  summaryUptoSeq: number | null;
  history: HistoryTurn[];
  contextTokens: number;
  maxReplyTokens: number;
}): PromptPlan {
  const member = input.member ?? DEFAULT_MEMBER;
  const persona = input.persona;
  const macros: MacroContext = { char: persona?.name ?? DEFAULT_ASSISTANT.name, user: member.name };
  const lore = persona?.characterBook
    ? selectLore({
        book: persona.characterBook,
        recentTexts: input.history.map((turn) => turn.content),
        tokenBudget: Math.min(LORE_MAX_TOKENS, Math.floor((input.contextTokens - input.maxReplyTokens) * LORE_SHARE)),
        scanDepth: LORE_SCAN_DEPTH,
        macros,
      })
    : { before: [], after: [], used: [], skipped: [] };
  const system: PromptMessage = { role: 'system', content: systemPromptFor(persona, member, lore) };
  const summary: PromptMessage | null = input.summary
    ? { role: 'system', content: `Summary of the earlier conversation: ${input.summary}` }
    : null;
  const post = persona?.postHistoryInstructions
    ? ({ role: 'system', content: expandMacros(persona.postHistoryInstructions, { ...macros, original: '' }) } as PromptMessage)
    : null;
  const fixedTokens =
    estimateTokens(system.content) + (summary ? estimateTokens(summary.content) : 0) + (post ? estimateTokens(post.content) : 0) + 8;
  let budget = input.contextTokens - input.maxReplyTokens - fixedTokens;
  const recent: HistoryTurn[] = [];
  let historyTokens = 0;
  for (let i = input.history.length - 1; i >= 0; i--) {
    const turn = input.history[i]!;
    const cost = estimateTokens(turn.content) + 4;
    // The newest turn is always sent, cut to the budget if it alone is too long.
    if (cost > budget && recent.length > 0) break;
    const sent = cost > budget ? { ...turn, content: turn.content.slice(-Math.max(budget, 64) * 3) } : turn;
    recent.unshift(sent);
    historyTokens += estimateTokens(sent.content) + 4;
    budget -= cost;
  }
  const firstIncludedSeq = recent[0]?.seq ?? null;
  const unsummarized = input.history.filter(
    (turn) =>
      (firstIncludedSeq === null || turn.seq < firstIncludedSeq) && (input.summaryUptoSeq === null || turn.seq > input.summaryUptoSeq),
  );
  const messages: PromptMessage[] = [system];
  if (summary) messages.push(summary);
  messages.push(...recent.map((turn) => ({ role: turn.role, content: turn.content })));
  if (post) messages.push(post);
  const loreTokens = lore.used.reduce((sum, entry) => sum + entry.tokens, 0);
  return {
    messages,
    firstIncludedSeq,
    unsummarized,
    report: {
      contextTokens: input.contextTokens,
      replyTokens: input.maxReplyTokens,
      promptTokens: fixedTokens + historyTokens,
      characterTokens: estimateTokens(system.content) - loreTokens + (post ? estimateTokens(post.content) : 0),
      summaryTokens: summary ? estimateTokens(summary.content) : 0,
      messagesIncluded: recent.length,
      messagesTotal: input.history.length,
      messageTokens: historyTokens,
      firstIncludedSeq,
      lore: lore.used.map((entry) => ({ label: entry.label || `#${entry.id}`, tokens: entry.tokens, keys: entry.matchedKeys })),
      loreSkipped: lore.skipped.map((entry) => ({ label: entry.label || `#${entry.id}`, reason: entry.reason })),
    },
  };
}

/** The request that folds turns that fell out of the window into the rolling summary. */
export function summaryRequest(previous: string | null, turns: HistoryTurn[]): PromptMessage[] {
  return [
    {
      role: 'system',
      content:
        'Summarize the conversation below in at most 150 words, in the third person, keeping names, facts, promises and the emotional state. Reply with the summary only.',
    },
    ...(previous ? [{ role: 'user' as const, content: `Summary so far: ${previous}` }] : []),
    ...turns.map((turn) => ({ role: turn.role, content: turn.content })),
  ];
}
