import { createHash } from 'node:crypto';
import { ACTION_LABEL, CHOICES_HEADING, CHOICE_LABEL, NARRATOR_HEADER, OPENING_REQUEST, PREMISE_LABEL } from '../stories/story-prompt';
import type { PromptMessage } from './chat-provider';

interface GenreScript {
  scenes: string[];
  choices: string[];
}

/** Scripted lines per genre: the demo narrator recombines them with the premise and the reader's action. It is not AI. */
const SCRIPTS: Record<string, GenreScript> = {
  default: {
    scenes: [
      'The air feels different now, as if the world is waiting to see what you will do.',
      'Somewhere nearby, a door closes softly, and the silence that follows is full of possibilities.',
      'A stranger watches you from across the way, then looks quickly aside.',
    ],
    choices: [
      'Look around carefully before moving on',
      'Call out to see if anyone answers',
      'Follow the path ahead without hesitating',
      'Turn back and think it over',
      'Search your pockets for something useful',
      'Wait quietly and listen',
    ],
  },
  fantasy: {
    scenes: [
      'Runes along the old stones flicker to life, glowing the pale blue of moonlight.',
      'A raven lands on a branch above you and tilts its head, as if it understood every word.',
      'Far off, a bell rings from a tower that should have fallen centuries ago.',
    ],
    choices: [
      'Touch the glowing runes',
      'Ask the raven what it knows',
      'Head toward the ringing bell',
      'Draw your blade and stay alert',
      'Cast the one spell you remember',
      'Hide in the tall grass and watch',
    ],
  },
  science_fiction: {
    scenes: [
      'A console blinks amber: one unread transmission, timestamped tomorrow.',
      'The hull groans as the station turns, and the stars slide past the viewport.',
      'A maintenance drone stops mid-task and points its single lens at you.',
    ],
    choices: [
      'Open the transmission',
      'Follow the maintenance drone',
      'Run a full diagnostic',
      'Head for the airlock',
      'Wake the rest of the crew',
      'Override the security lock',
    ],
  },
  mystery: {
    scenes: [
      'On the table lies a folded note, the ink still wet, addressed to no one.',
      'A clock in the hallway has stopped at exactly seventeen minutes past nine.',
      'Footprints in the dust lead to the bookshelf and simply end there.',
    ],
    choices: [
      'Read the folded note',
      'Examine the stopped clock',
      'Inspect the bookshelf',
      'Question the housekeeper',
      'Write down everything you have noticed',
      'Slip out quietly and watch the house',
    ],
  },
  romance: {
    scenes: [
      'Someone laughs nearby, a warm, familiar sound that makes you turn your head.',
      'A letter with your name on it waits under the café saucer.',
      'The evening light softens everything, and for a moment nothing else matters.',
    ],
    choices: [
      'Say what you have been holding back',
      'Open the letter',
      'Suggest a walk by the river',
      'Pretend you did not notice',
      'Ask an honest question',
      'Leave a note of your own',
    ],
  },
  horror: {
    scenes: [
      'The lights dim, then return, and something in the room has moved.',
      'From under the floorboards comes a slow, patient knocking.',
      'Your reflection in the window blinks a moment after you do.',
    ],
    choices: [
      'Turn on every light you can find',
      'Pry up the floorboards',
      'Run for the front door',
      'Call out and ask who is there',
      'Hide and hold your breath',
      'Grab the nearest heavy object',
    ],
  },
  adventure: {
    scenes: [
      'The map in your hands shows a path that was not there a moment ago.',
      'A rope bridge sways over the gorge, missing every third plank.',
      'Drums echo through the jungle, closer with every beat.',
    ],
    choices: [
      'Follow the new path on the map',
      'Cross the rope bridge',
      'Climb a tree to get a better view',
      'Make camp and wait for dawn',
      'Head toward the drums',
      'Check your supplies',
    ],
  },
  comedy: {
    scenes: [
      'A goose in a tiny hat waddles past, looking deeply unimpressed with you.',
      'Your phone buzzes: a message from yourself, sent from next week, that just says "Don\'t."',
      'Somewhere, a marching band starts playing, badly, and very close by.',
    ],
    choices: [
      'Follow the goose',
      'Reply to the message from yourself',
      'Join the marching band',
      'Pretend this is all perfectly normal',
      'Announce a dramatic plan loudly',
      'Take a nap and hope it sorts itself out',
    ],
  },
  drama: {
    scenes: [
      'An old photograph falls from a book, and you recognise every face but one.',
      'The phone rings. You know who it is before you look.',
      'Rain taps on the window, the same way it did that night years ago.',
    ],
    choices: [
      'Answer the phone',
      'Ask about the face in the photograph',
      'Go somewhere to be alone for a while',
      'Tell the truth, all of it',
      'Keep the secret a little longer',
      'Visit someone you have not seen in years',
    ],
  },
};

const TONE_LINES: Record<string, string> = {
  lighthearted: 'Somehow, you cannot help smiling.',
  dark: 'A chill settles over everything.',
  romantic: 'Your heart beats a little faster.',
  suspenseful: 'Every second stretches longer than the last.',
  whimsical: 'Nothing here follows the usual rules, and that is rather delightful.',
  gritty: 'Nothing comes for free here, and everyone knows it.',
};

/** True when the prompt was written by the story narrator (services/chat/src/stories/story-prompt.ts). */
export function isNarratorPrompt(messages: readonly PromptMessage[]): boolean {
  return messages[0]?.role === 'system' && messages[0].content.startsWith(NARRATOR_HEADER);
}

/**
 * A short scripted passage for an offline story: the premise (or the reader's action) recombined with lines of the
 * genre, then the choices block in the narrator's format, so the whole story flow works without a model.
 */
export function composeDemoPassage(messages: readonly PromptMessage[]): string {
  const system = messages[0]?.content ?? '';
  const line = (label: string) =>
    system
      .match(new RegExp(`^${label}: (.*)$`, 'm'))?.[1]
      ?.trim()
      .toLowerCase()
      .replace(/ /g, '_') ?? '';
  const characters = system.match(/^Characters: (.*)$/m)?.[1]?.trim() ?? '';
  const premise = messages.find((message) => message.role === 'user' && message.content.startsWith(PREMISE_LABEL));
  const turn = [...messages].reverse().find((message) => message.role === 'user')?.content ?? OPENING_REQUEST;
  const script = SCRIPTS[line('Genre')] ?? SCRIPTS.default!;
  const seed = createHash('sha256').update(`${turn}\n${messages.length}`).digest();
  const opening = turn === OPENING_REQUEST || turn.startsWith(PREMISE_LABEL);
  const lead = opening
    ? `The story begins. ${firstSentence(premise?.content.slice(PREMISE_LABEL.length) ?? '')}`
    : `You decide: "${firstSentence(readerAction(turn))}"`;
  const company = characters ? ` ${characters} ${characters.includes(',') ? 'are' : 'is'} right beside you.` : '';
  const passage = [
    lead,
    company,
    ` ${script.scenes[seed[0]! % script.scenes.length]}`,
    TONE_LINES[line('Tone')] ? ` ${TONE_LINES[line('Tone')]}` : '',
  ]
    .join('')
    .trim();
  return `${passage}\n\nWhat do you do?\n\n${CHOICES_HEADING}\n${pickChoices(script.choices, seed)
    .map((choice, index) => `${index + 1}. ${choice}`)
    .join('\n')}`;
}

function readerAction(turn: string): string {
  for (const label of [CHOICE_LABEL, ACTION_LABEL]) if (turn.startsWith(label)) return turn.slice(label.length);
  return turn;
}

/** Three different choices, picked by the seed. */
function pickChoices(choices: readonly string[], seed: Buffer): string[] {
  const picked: string[] = [];
  for (let byte = 1; picked.length < 3 && byte < seed.length; byte++) {
    const choice = choices[seed[byte]! % choices.length]!;
    if (!picked.includes(choice)) picked.push(choice);
  }
  for (const choice of choices) if (picked.length < 3 && !picked.includes(choice)) picked.push(choice);
  return picked;
}

/** The first sentence of a text, at most 30 words, ending with its punctuation. */
function firstSentence(text: string): string {
  const sentence = (text.trim().split(/(?<=[.!?])\s/)[0] ?? '').replace(/["*#]/g, '').replace(/\s+/g, ' ');
  const words = sentence.split(' ').filter(Boolean);
  const cut = words.slice(0, 30).join(' ');
  if (!cut) return 'Something is about to happen.';
  return /[.!?]$/.test(cut) ? cut : `${cut}.`;
}
