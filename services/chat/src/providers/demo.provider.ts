import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ChatProvider, type CompletionChunk, type CompletionRequest, type CompletionResult, ProviderError } from './chat-provider';
import { composeDemoPassage, isNarratorPrompt } from './demo-story';
import { estimateTokens } from './token-estimate';

/** The persona facts the demo responder reads from the system prompt the prompt builder wrote. */
interface PersonaHints {
  name: string;
  traits: string[];
  scenario: string;
}

const OPENERS = [
  '*{name} leans in, clearly interested.*',
  '*{name} smiles and takes a moment before answering.*',
  '*{name} tilts their head, thinking it over.*',
  '*{name} laughs softly.*',
  '*{name} nods slowly.*',
];

const TRAIT_LINES: Record<string, string> = {
  creative: 'I keep picturing new ways this could go.',
  analytical: 'Let me think about this step by step.',
  empathetic: 'I can tell this matters to you.',
  humorous: "I'd make a joke here, but you'd see it coming.",
  wise: 'Some things only make sense looking back.',
  energetic: "Come on, let's not sit still on this!",
  calm: "There's no rush. We have time.",
  adventurous: "Honestly? I'd say we go for it.",
  mysterious: "There's more to that than I can say right now.",
  friendly: "I'm really glad you told me.",
  intellectual: 'That raises a fascinating question.',
  artistic: 'It sounds almost like a painting when you say it.',
};

/**
 * The offline demo responder used when no AI provider is configured. It is scripted, not AI: it
 * recombines the character's own fields and quotes the member, streamed word by word like a model.
 */
export class DemoChatProvider implements ChatProvider {
  readonly kind = 'demo';
  readonly model = 'demo';
  readonly isDemo = true;
  readonly contextTokens = 4096;
  readonly maxReplyTokens = 200;

  constructor(private readonly chunkDelayMs = 35) {}

  async *stream(request: CompletionRequest): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    const reply = this.compose(request);
    const words = reply.match(/\S+\s*/g) ?? [reply];
    let text = '';
    for (const word of words) {
      if (request.signal?.aborted) throw new ProviderError('CANCELLED', 'The reply was stopped');
      if (this.chunkDelayMs > 0) await sleep(this.chunkDelayMs, undefined, { signal: request.signal }).catch(() => undefined);
      if (request.signal?.aborted) throw new ProviderError('CANCELLED', 'The reply was stopped');
      text += word;
      yield { text: word };
    }
    const prompt = request.messages.map((message) => message.content).join('\n');
    return { text, promptTokens: estimateTokens(prompt), completionTokens: estimateTokens(text), finishReason: 'stop', model: this.model };
  }

  private compose(request: CompletionRequest): string {
    const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
    const lastUser =
      [...request.messages]
        .reverse()
        .find((message) => message.role === 'user')
        ?.content.trim() ?? '';
    if (system.startsWith('Summarize')) return this.summarize(request);
    if (isNarratorPrompt(request.messages)) return composeDemoPassage(request.messages);
    const persona = readPersona(system);
    const seed = createHash('sha256').update(lastUser).digest();
    const pick = <T>(list: readonly T[], byte: number): T => list[seed[byte]! % list.length]!;
    const opener = pick(OPENERS, 0).replace('{name}', persona.name);
    const echo = quote(lastUser);
    const traitLines = persona.traits.map((trait) => TRAIT_LINES[trait.toLowerCase()]).filter((line): line is string => Boolean(line));
    const traitLine = traitLines.length ? pick(traitLines, 1) : 'Tell me more.';
    const scene = persona.scenario ? ` ${persona.scenario.split(/(?<=[.!?])\s/)[0]}` : '';
    const question = lastUser.endsWith('?') ? "That's a good question." : 'What happens next is up to you.';
    return `${opener} "${echo ? `${echo}... ` : ''}${traitLine} ${question}"${scene ? `\n\n*${scene.trim()}*` : ''}`;
  }

  private summarize(request: CompletionRequest): string {
    const turns = request.messages.filter((message) => message.role !== 'system');
    return turns
      .map((message) => `${message.role === 'user' ? 'The member' : 'The character'} said: ${quote(message.content)}.`)
      .join(' ')
      .slice(0, 1200);
  }
}

/** The first sentence of a message, at most 12 words. */
function quote(text: string): string {
  const sentence = text.split(/(?<=[.!?])\s/)[0] ?? '';
  const words = sentence.replace(/["*]/g, '').split(/\s+/).filter(Boolean);
  return words
    .slice(0, 12)
    .join(' ')
    .replace(/[.!?]+$/, '');
}

/** Reads the "Name:", "Traits:" and "Scenario:" lines the prompt builder writes. */
function readPersona(system: string): PersonaHints {
  const line = (label: string) => system.match(new RegExp(`^${label}: (.*)$`, 'm'))?.[1]?.trim() ?? '';
  return {
    name: line('Name') || 'Your companion',
    traits: line('Traits')
      .split(',')
      .map((trait) => trait.trim())
      .filter(Boolean),
    scenario: line('Scenario'),
  };
}
