import { ADVANCED_IMAGE_SETTINGS, MEDIA_LIMITS } from '@app/schema';
import {
  ADVANCED_LIMITS,
  ADVANCED_SETTINGS,
  advancedFormFrom,
  EMPTY_ADVANCED_FORM,
  hasAdvancedValues,
  readAdvancedForm,
} from './advanced-settings';

const ALL = ADVANCED_SETTINGS;
const SAMPLERS = ['Euler a', 'DPM++ 2M Karras'];

describe('advanced image settings form', () => {
  it('sends nothing when every field is left empty (the renderer defaults, a random seed)', () => {
    expect(readAdvancedForm(EMPTY_ADVANCED_FORM, ALL, SAMPLERS)).toEqual({ settings: {}, errors: {} });
    expect(hasAdvancedValues(EMPTY_ADVANCED_FORM)).toBe(false);
  });

  it('reads valid values as numbers and trimmed text', () => {
    const form = { negativePrompt: '  blurry, text ', seed: '42', steps: '30', cfgScale: '7,5', sampler: 'Euler a' };
    expect(readAdvancedForm(form, ALL, SAMPLERS)).toEqual({
      settings: { negativePrompt: 'blurry, text', seed: 42, steps: 30, cfgScale: 7.5, sampler: 'Euler a' },
      errors: {},
    });
    expect(hasAdvancedValues(form)).toBe(true);
  });

  it('refuses values outside the server limits, naming the range', () => {
    const form = { negativePrompt: 'x'.repeat(2001), seed: '-1', steps: '151', cfgScale: '0.5', sampler: 'Heun' };
    const { errors } = readAdvancedForm(form, ALL, SAMPLERS);
    expect(errors).toEqual({
      negativePrompt: 'Keep the negative prompt under 2000 characters.',
      seed: 'Enter a whole number from 0 to 2147483647, or leave it empty for a random seed.',
      steps: 'Enter a whole number from 1 to 150.',
      cfgScale: 'Enter a number from 1 to 30.',
      sampler: "Choose one of the renderer's samplers.",
    });
    expect(readAdvancedForm({ ...EMPTY_ADVANCED_FORM, seed: '2147483648' }, ALL, SAMPLERS).errors.seed).toBeDefined();
    expect(readAdvancedForm({ ...EMPTY_ADVANCED_FORM, steps: '2.5' }, ALL, SAMPLERS).errors.steps).toBeDefined();
    expect(readAdvancedForm({ ...EMPTY_ADVANCED_FORM, seed: '2147483647', steps: '1', cfgScale: '30' }, ALL, SAMPLERS).errors).toEqual({});
  });

  it('sends only the settings the renderer honours', () => {
    const form = { negativePrompt: 'blurry', seed: '7', steps: '20', cfgScale: '6', sampler: 'Euler a' };
    expect(readAdvancedForm(form, ['seed'], [])).toEqual({ settings: { seed: 7 }, errors: {} });
    expect(readAdvancedForm(form, [], [])).toEqual({ settings: {}, errors: {} });
  });

  it("fills the form from an image's recorded settings", () => {
    expect(advancedFormFrom({ negativePrompt: null, seed: 1234, steps: 25, cfgScale: 7.5, sampler: 'Euler a' })).toEqual({
      negativePrompt: '',
      seed: '1234',
      steps: '25',
      cfgScale: '7.5',
      sampler: 'Euler a',
    });
    expect(advancedFormFrom(undefined)).toEqual(EMPTY_ADVANCED_FORM);
  });
});

describe("the form's copy of the server's rules", () => {
  it('matches the schema the server validates with', () => {
    const { negativePromptLength, seedMax, stepsMin, stepsMax, cfgScaleMin, cfgScaleMax } = MEDIA_LIMITS;
    expect(ADVANCED_LIMITS).toEqual({ negativePromptLength, seedMax, stepsMin, stepsMax, cfgScaleMin, cfgScaleMax });
    expect(ADVANCED_SETTINGS).toEqual(ADVANCED_IMAGE_SETTINGS);
  });
});
