import { effectiveSampling, withoutEmptySettings } from './sampling';

describe('sampler settings', () => {
  it('treats settings with nothing set as none', () => {
    expect(withoutEmptySettings({})).toBeNull();
    expect(withoutEmptySettings({ temperature: null, stop: null, extras: {} })).toBeNull();
    expect(withoutEmptySettings({ temperature: 0 })).toEqual({ temperature: 0 });
  });

  it("lets a conversation's settings win field by field over its character's, extras included", () => {
    expect(
      effectiveSampling(
        { temperature: 1.1, topP: 0.9, extras: { min_p: 0.05, top_k: 40 } },
        { temperature: 0.7, extras: { top_k: 20 }, stop: ['\nUser:'] },
      ),
    ).toEqual({ temperature: 0.7, topP: 0.9, stop: ['\nUser:'], extras: { min_p: 0.05, top_k: 20 } });
    expect(effectiveSampling(null, null)).toBeNull();
    expect(effectiveSampling({ maxTokens: 300 }, null)).toEqual({ maxTokens: 300 });
  });
});
