import type { PromptMessage } from '../providers/chat-provider';
import { estimateTokens } from '../providers/token-estimate';

/** The persona a conversation's character gives the model (a snapshot survives the character's deletion). */
export interface Persona {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  exampleDialogue: string;
  systemPrompt: string;
  postHistoryInstructions: string;
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

/** Replaces the community's {{char}} / {{user}} macros (Character Card convention). */
export function expandMacros(text: string, charName: string): string {
  return text.replace(/\{\{char\}\}|<BOT>/gi, charName).replace(/\{\{user\}\}|<USER>/gi, 'User');
}

export function systemPromptFor(persona: Persona | null): string {
  const p = persona ?? DEFAULT_ASSISTANT;
  const lines = [
    p.systemPrompt
      ? expandMacros(p.systemPrompt, p.name)
      : `You are ${p.name}. Stay in character, reply in the first person, and keep replies vivid and concise. Never speak for the user.`,
    `Name: ${p.name}`,
  ];
  if (p.description) lines.push(`Description: ${expandMacros(p.description, p.name)}`);
  if (p.personality) lines.push(`Traits: ${expandMacros(p.personality, p.name)}`);
  if (p.scenario) lines.push(`Scenario: ${expandMacros(p.scenario, p.name)}`);
  if (p.exampleDialogue) lines.push(`Example dialogue:\n${expandMacros(p.exampleDialogue, p.name)}`);
  return lines.join('\n');
}

/**
 * Builds the prompt: the character, a rolling summary of older turns, and as many recent turns as
 * fit in the model's context after reserving room for the reply.
 */
export function buildPrompt(input: {
  persona: Persona | null;
  summary: string | null;
  summaryUptoSeq: number | null;
  history: HistoryTurn[];
  contextTokens: number;
  maxReplyTokens: number;
}): PromptPlan {
  const system: PromptMessage = { role: 'system', content: systemPromptFor(input.persona) };
  const summary: PromptMessage | null = input.summary
    ? { role: 'system', content: `Summary of the earlier conversation: ${input.summary}` }
    : null;
  const post = input.persona?.postHistoryInstructions
    ? ({ role: 'system', content: expandMacros(input.persona.postHistoryInstructions, input.persona.name) } as PromptMessage)
    : null;
  let budget =
    input.contextTokens -
    input.maxReplyTokens -
    estimateTokens(system.content) -
    (summary ? estimateTokens(summary.content) : 0) -
    (post ? estimateTokens(post.content) : 0) -
    8;
  const recent: HistoryTurn[] = [];
  for (let i = input.history.length - 1; i >= 0; i--) {
    const turn = input.history[i]!;
    const cost = estimateTokens(turn.content) + 4;
    // The newest turn is always sent, cut to the budget if it alone is too long.
    if (cost > budget && recent.length > 0) break;
    recent.unshift(cost > budget ? { ...turn, content: turn.content.slice(-Math.max(budget, 64) * 3) } : turn);
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
  return { messages, firstIncludedSeq, unsummarized };
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
