import { providerBannerContent, screenLabelsItsOwnDemo } from './provider-banner';

const demo = { model: 'demo', isDemo: true, source: 'demo', server: null };
const configured = { model: 'gpt-4o-mini', isDemo: false, source: 'configured', server: null };
const ollama = { model: 'llama3.2:3b', isDemo: false, source: 'detected', server: 'Ollama' };

describe('what the provider banner says', () => {
  it('says nothing when the operator configured both providers', () => {
    expect(providerBannerContent(configured, configured)).toBeNull();
  });

  it('labels each demo, and names what was found on this computer', () => {
    expect(providerBannerContent(demo, demo)).toMatchObject({ chat: 'demo', images: 'demo' });
    expect(providerBannerContent(ollama, configured)).toMatchObject({ chat: 'detected', images: null });
    expect(providerBannerContent(configured, demo)).toMatchObject({ chat: null, images: 'demo' });
  });

  it('comes back after a dismissal when what it says changes (a model connected, another model found)', () => {
    const signatures = [
      providerBannerContent(demo, demo),
      providerBannerContent(ollama, demo),
      providerBannerContent({ ...ollama, model: 'qwen2.5:7b-instruct' }, demo),
    ].map((content) => content?.signature);
    expect(new Set(signatures).size).toBe(3);
    expect(providerBannerContent(demo, demo)?.signature).toBe(signatures[0]);
  });

  it('stays off the full-height chat and story screens, which label their demo replies themselves', () => {
    expect(['/chat', '/chat/abc', '/stories', '/stories/x'].filter(screenLabelsItsOwnDemo)).toHaveLength(4);
    expect(['/', '/gallery', '/generator', '/chatter', '/characters'].filter(screenLabelsItsOwnDemo)).toEqual([]);
  });
});
