import { STORY_LIMITS, type StoryActionKind, type StoryGenre, type StoryLanguage, type StoryTone } from '@app/schema';
import type { PromptMessage } from '../providers/chat-provider';
import { TOKENS_PER_MESSAGE, TOKENS_PER_REPLY_PRIMING, estimateTokens } from '../providers/token-estimate';
import type { StoryCharacter } from './stories.repository';

/** The first line of every narrator prompt; the offline demo recognises a story by it. */
export const NARRATOR_HEADER = 'You are the narrator of an interactive story.';
/** The line between a passage and the choices it offers. */
export const CHOICES_HEADING = '### Choices';
export const PREMISE_LABEL = 'Premise: ';
export const OPENING_REQUEST = 'Begin the story.';
export const CHOICE_LABEL = 'The reader chooses: ';
export const ACTION_LABEL = 'The reader does this: ';
export const OMITTED_NOTE = '(Some earlier passages of this branch are left out.)';

const LANGUAGE_NAMES: Record<StoryLanguage, string> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  ru: 'Russian',
  zh: 'Chinese',
  hi: 'Hindi',
  pt: 'Portuguese',
  ko: 'Korean',
};

/** A passage on the way to the one being written, as the narrator rereads it. */
export interface PathPassage {
  actionKind: StoryActionKind;
  action: string | null;
  content: string;
  /** A moderator removed it: its text is never read back to the model. */
  isRemoved: boolean;
}

export interface StoryPromptInput {
  premise: string;
  genre: StoryGenre | null;
  tone: StoryTone | null;
  language: StoryLanguage;
  characters: readonly StoryCharacter[];
  /** The passages before the new one, opening first. */
  path: readonly PathPassage[];
  /** How the new passage is reached: the opening, or the reader's choice or action. */
  next: { actionKind: StoryActionKind; action: string | null };
  contextTokens: number;
  maxReplyTokens: number;
}

const humanize = (value: string) => value.replace(/_/g, ' ');

function narratorInstructions(input: StoryPromptInput): string {
  const lines = [
    NARRATOR_HEADER,
    'Write the next passage of the story in the second person ("you"), vivid and concrete, about 120 to 250 words, and end it at a moment where the reader must decide what to do.',
    `Then write the line "${CHOICES_HEADING}" and ${STORY_LIMITS.choicesMin} to ${STORY_LIMITS.choicesMax} numbered options ("1. ...", one per line, each one short sentence) for what the reader may do next. Write nothing after the options.`,
    'Never decide for the reader; follow what the reader chooses or does, keeping the story consistent with what happened before.',
    `Language: ${LANGUAGE_NAMES[input.language]} (write the passage and the options in it).`,
  ];
  if (input.genre) lines.push(`Genre: ${humanize(input.genre)}`);
  if (input.tone) lines.push(`Tone: ${humanize(input.tone)}`);
  if (input.characters.length) {
    lines.push(`Characters: ${input.characters.map((character) => character.name).join(', ')}`);
    for (const character of input.characters) lines.push(describeCharacter(character));
  }
  return lines.join('\n');
}

function describeCharacter(character: StoryCharacter): string {
  const facts = [character.description, character.personality && `Personality: ${character.personality}`, character.scenario]
    .map((fact) => fact.trim())
    .filter(Boolean);
  return `- ${character.name}${facts.length ? `: ${facts.join(' ')}` : ''}`;
}

/** The reader's turn that leads to a passage, as the narrator is told it. */
export function readerTurn(actionKind: StoryActionKind, action: string | null): string {
  if (actionKind === 'opening' || !action) return OPENING_REQUEST;
  return `${actionKind === 'choice' ? CHOICE_LABEL : ACTION_LABEL}${action}`;
}

/** One passage of the path as prompt turns: the reader's action (openings have none) and the passage's text. */
function turnsOf(passage: PathPassage): PromptMessage[] {
  const turns: PromptMessage[] = [];
  if (passage.actionKind !== 'opening') turns.push({ role: 'user', content: readerTurn(passage.actionKind, passage.action) });
  if (!passage.isRemoved && passage.content.trim()) turns.push({ role: 'assistant', content: passage.content });
  return turns;
}

const cost = (messages: readonly PromptMessage[]) =>
  messages.reduce((total, message) => total + TOKENS_PER_MESSAGE + estimateTokens(message.content), 0);

/**
 * The narrator's prompt: instructions, the premise, as many of the newest passages of the branch as fit the model's
 * context after reserving room for the passage, and the reader's turn. The premise and the newest passages are kept;
 * the oldest ones after the opening's premise are left out first.
 */
export function buildStoryPrompt(input: StoryPromptInput): PromptMessage[] {
  const system: PromptMessage = { role: 'system', content: narratorInstructions(input) };
  const premise: PromptMessage = { role: 'user', content: `${PREMISE_LABEL}${input.premise}` };
  const next: PromptMessage = { role: 'user', content: readerTurn(input.next.actionKind, input.next.action) };
  const note: PromptMessage = { role: 'system', content: OMITTED_NOTE };
  let budget = input.contextTokens - input.maxReplyTokens - TOKENS_PER_REPLY_PRIMING - cost([system, premise, next, note]);
  const kept: PromptMessage[][] = [];
  for (let index = input.path.length - 1; index >= 0; index--) {
    const turns = turnsOf(input.path[index]!);
    const needed = cost(turns);
    if (needed > budget) break;
    kept.unshift(turns);
    budget -= needed;
  }
  const isCut = kept.length < input.path.length;
  return [system, premise, ...(isCut ? [note] : []), ...kept.flat(), next];
}

export interface FinalizedPassage {
  content: string;
  choices: string[];
}

/** Where the choices block starts: the first line that starts with `###`; -1 when there is none. */
function choicesStart(text: string): number {
  const match = /(^|\n)[ \t]*###/.exec(text);
  if (!match) return -1;
  return match.index + match[1]!.length;
}

/** `1. …`, `2) …`, or a bulleted `- …`. */
const OPTION = /^\s*(?:\d{1,2}\s*[.):-]\s*|[-*•]\s+)(\S.*?)\s*$/;

function cleanChoice(line: string): string {
  const text = line
    .replace(/^\*\*(.+)\*\*$/, '$1')
    .replace(/^"(.+)"$/, '$1')
    .trim();
  return text.length > STORY_LIMITS.choiceLength ? text.slice(0, STORY_LIMITS.choiceLength).trimEnd() : text;
}

/**
 * Splits a written passage into its text (before the first line starting with `###`) and its 2-4 numbered choices;
 * a model that offered fewer than two leaves none (the reader writes an action), more than four are cut.
 */
export function finalizePassage(text: string): FinalizedPassage {
  const start = choicesStart(text);
  if (start < 0) return { content: text.trim(), choices: [] };
  const choices = text
    .slice(start)
    .split('\n')
    .slice(1)
    .map((line) => OPTION.exec(line)?.[1])
    .filter((option): option is string => Boolean(option))
    .map(cleanChoice)
    .filter(Boolean)
    .slice(0, STORY_LIMITS.choicesMax);
  return { content: text.slice(0, start).trim(), choices: choices.length >= STORY_LIMITS.choicesMin ? choices : [] };
}
