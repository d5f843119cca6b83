import {
  addStopSequence,
  EMPTY_SAMPLER_FORM,
  hasSamplerProblems,
  isSamplerFormEmpty,
  parseExtraValue,
  samplerProblems,
  toSamplerForm,
  toSamplerInput,
  type SamplerForm,
} from './sampler-model';

const form = (changes: Partial<SamplerForm>): SamplerForm => ({ ...EMPTY_SAMPLER_FORM, ...changes });

describe('sampler settings form', () => {
  it('sends only the settings filled in, with numbers, booleans and texts as such', () => {
    const input = toSamplerInput(
      form({
        temperature: '0.8',
        maxTokens: '300',
        stop: ['\nUser:'],
        extras: [
          { name: 'min_p', value: '0.05' },
          { name: 'ignore_eos', value: 'false' },
          { name: 'mirostat_mode', value: 'auto' },
          { name: '', value: '' },
        ],
      }),
    );
    expect(input).toEqual({
      temperature: 0.8,
      maxTokens: 300,
      stop: ['\nUser:'],
      extras: { min_p: 0.05, ignore_eos: false, mirostat_mode: 'auto' },
    });
  });

  it('sends {} for an empty form, which clears every setting', () => {
    expect(toSamplerInput(EMPTY_SAMPLER_FORM)).toEqual({});
    expect(isSamplerFormEmpty(form({ temperature: '  ' }))).toBe(true);
  });

  it('reads saved settings back into the same form', () => {
    const saved = { temperature: 1.1, topP: null, maxTokens: 512, stop: ['###'], extras: { top_k: 40, ignore_eos: true } };
    const back = toSamplerForm(saved);
    expect(back).toEqual(
      form({
        temperature: '1.1',
        maxTokens: '512',
        stop: ['###'],
        extras: [
          { name: 'top_k', value: '40' },
          { name: 'ignore_eos', value: 'true' },
        ],
      }),
    );
    expect(toSamplerInput(back)).toEqual({ temperature: 1.1, maxTokens: 512, stop: ['###'], extras: { top_k: 40, ignore_eos: true } });
    expect(toSamplerForm(null)).toEqual(EMPTY_SAMPLER_FORM);
  });

  it('refuses values the server would refuse', () => {
    const problems = samplerProblems(
      form({ temperature: '2.5', topP: '0', maxTokens: '100.5', presencePenalty: '-3', frequencyPenalty: '2' }),
    );
    expect(problems.numbers).toEqual({ temperature: 'range', topP: 'range', maxTokens: 'integer', presencePenalty: 'range' });
    expect(samplerProblems(form({ maxTokens: '8' })).numbers).toEqual({ maxTokens: 'range' });
    expect(hasSamplerProblems(samplerProblems(form({ temperature: '0', topP: '1', maxTokens: '4096' })))).toBe(false);
  });

  it('refuses bad, reserved, repeated and valueless extras, and more than 8', () => {
    const problems = samplerProblems(
      form({
        extras: [
          { name: 'Min_P', value: '1' },
          { name: 'max_tokens', value: '9999' },
          { name: 'top_k', value: '40' },
          { name: 'top_k', value: '41' },
          { name: 'typical_p', value: ' ' },
        ],
      }),
    );
    expect(problems.extras).toEqual({ 0: 'extraName', 1: 'extraReserved', 3: 'extraDuplicate', 4: 'extraValue' });
    const many = Array.from({ length: 9 }, (_, index) => ({ name: `x${index}`, value: '1' }));
    expect(samplerProblems(form({ extras: many })).extrasCount).toBe(true);
    expect(samplerProblems(form({ extras: many.slice(0, 8) })).extrasCount).toBe(false);
  });

  it('adds stop sequences as typed, \\n as a line break, at most 4 of at most 32 characters', () => {
    expect(addStopSequence([], '\\nUser:')).toEqual(['\nUser:']);
    expect(addStopSequence(['a'], 'a')).toEqual(['a']);
    expect(addStopSequence([], '')).toEqual([]);
    expect(addStopSequence([], 'x'.repeat(33))).toEqual([]);
    expect(addStopSequence(['a', 'b', 'c', 'd'], 'e')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('parses extra values', () => {
    expect(parseExtraValue(' 40 ')).toBe(40);
    expect(parseExtraValue('true')).toBe(true);
    expect(parseExtraValue('0x')).toBe('0x');
  });
});
