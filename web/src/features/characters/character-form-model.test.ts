import {
  addTrait,
  cardDownloadUrl,
  cardFileProblem,
  characterName,
  EMPTY_CHARACTER_FORM,
  hasTrait,
  MAX_CARD_BYTES,
  needsRating,
  removeTrait,
  toCharacterForm,
  toCreateCharacterInput,
  toUpdateCharacterInput,
  visibleTraits,
} from './character-form-model';

describe('traits', () => {
  it('adds a trimmed trait once', () => {
    expect(addTrait([], '  Witty ')).toEqual(['Witty']);
    expect(addTrait(['Witty'], 'witty')).toEqual(['Witty']);
    expect(addTrait(['Witty'], '   ')).toEqual(['Witty']);
    expect(addTrait(['Witty'], 'Calm')).toEqual(['Witty', 'Calm']);
  });

  it('refuses traits over the server limits', () => {
    expect(addTrait([], 'x'.repeat(41))).toEqual([]);
    const twenty = Array.from({ length: 20 }, (_, i) => `T${i}`);
    expect(addTrait(twenty, 'One more')).toHaveLength(20);
  });

  it('removes a clicked trait and tells whether a suggestion is chosen', () => {
    expect(removeTrait(['Calm', 'Wise'], 'Calm')).toEqual(['Wise']);
    expect(hasTrait(['Calm'], 'calm')).toBe(true);
    expect(hasTrait(['Calm'], 'Wise')).toBe(false);
  });

  it('shows at most three traits on a card, then +N', () => {
    expect(visibleTraits(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
    expect(visibleTraits(['a'])).toEqual({ shown: ['a'], more: 0 });
  });
});

describe('payloads', () => {
  it('requires a name after trimming', () => {
    expect(characterName({ name: '   ' })).toBeNull();
    expect(characterName({ name: ' Aria ' })).toBe('Aria');
  });

  it('trims the create payload and omits an empty description', () => {
    expect(toCreateCharacterInput({ ...EMPTY_CHARACTER_FORM, name: ' Aria ', description: '  ', traits: ['Calm'] })).toEqual({
      name: 'Aria',
      personalityTraits: ['Calm'],
      isPublic: false,
    });
    expect(toCreateCharacterInput({ ...EMPTY_CHARACTER_FORM, name: 'Aria', description: ' A bard ', greeting: ' Hello! ' })).toMatchObject({
      description: 'A bard',
      greeting: 'Hello!',
    });
  });

  it('clears the description on update when it was emptied', () => {
    expect(toUpdateCharacterInput({ ...EMPTY_CHARACTER_FORM, name: 'Aria' }).description).toBeNull();
  });

  it('sends the rating once chosen, and asks for one before a character goes public', () => {
    expect(toCreateCharacterInput({ ...EMPTY_CHARACTER_FORM, name: 'Aria', isPublic: true, rating: 'SUGGESTIVE' })).toMatchObject({
      isPublic: true,
      rating: 'SUGGESTIVE',
    });
    expect(toUpdateCharacterInput({ ...EMPTY_CHARACTER_FORM, name: 'Aria', rating: 'SAFE' }).rating).toBe('SAFE');
    expect(toUpdateCharacterInput({ ...EMPTY_CHARACTER_FORM, name: 'Aria' })).not.toHaveProperty('rating');
    expect(needsRating({ isPublic: true, rating: null })).toBe(true);
    expect(needsRating({ isPublic: true, rating: 'EXPLICIT' })).toBe(false);
    expect(needsRating({ isPublic: false, rating: null })).toBe(false);
  });

  it('fills the edit form from a character', () => {
    const form = toCharacterForm({
      name: 'Aria',
      description: null,
      personality: { traits: ['Calm'] },
      isPublic: true,
      rating: 'SUGGESTIVE',
      scenario: 'A tavern',
      greeting: 'Hi',
      exampleDialogue: '',
      systemPrompt: '',
    });
    expect(form).toMatchObject({
      name: 'Aria',
      description: '',
      traits: ['Calm'],
      isPublic: true,
      rating: 'SUGGESTIVE',
      scenario: 'A tavern',
    });
  });
});

describe('card files', () => {
  it('accepts PNG and JSON cards up to 8 MB', () => {
    expect(cardFileProblem({ name: 'aria.png', size: 1000 })).toBeNull();
    expect(cardFileProblem({ name: 'aria.JSON', size: MAX_CARD_BYTES })).toBeNull();
    expect(cardFileProblem({ name: 'aria.png', size: MAX_CARD_BYTES + 1 })).toMatch(/8 MB/);
    expect(cardFileProblem({ name: 'aria.txt', size: 10 })).toMatch(/\.png or \.json/);
  });

  it('builds the download address of each format', () => {
    expect(cardDownloadUrl('abc', 'json_v3')).toBe('/api/characters/abc/card?format=json_v3');
  });
});
