import { readChatConfig } from '../chat.config';
import { chooseProvider } from '../index';
import { describeProvider } from './chat-provider';
import { OpenAiChatProvider, readOpenAiChatConfig } from './openai-chat.provider';

const LOCAL_OLLAMA = { CHAT_API_BASE_URL: 'http://127.0.0.1:11434/v1', CHAT_MODEL: 'llama3.2:3b' };
const choose = (env: NodeJS.ProcessEnv) => chooseProvider(env, readChatConfig(env));

describe('choosing the chat provider', () => {
  it('answers with the demo when CHAT_PROVIDER=demo, even with an API configured, and labels it the demo', () => {
    const provider = choose({ ...LOCAL_OLLAMA, CHAT_PROVIDER: 'demo' });
    expect(describeProvider(provider)).toEqual({ kind: 'demo', model: 'demo', isDemo: true, source: 'demo', server: null });
  });

  it('refuses CHAT_PROVIDER=openai without the API to call', () => {
    expect(() => choose({ CHAT_PROVIDER: 'openai' })).toThrow('CHAT_PROVIDER=openai needs CHAT_API_BASE_URL and CHAT_MODEL');
  });

  it('uses the API when its base URL is set, with or without CHAT_PROVIDER=openai', () => {
    for (const env of [LOCAL_OLLAMA, { ...LOCAL_OLLAMA, CHAT_PROVIDER: 'openai' }]) {
      expect(choose(env)).toMatchObject({ kind: 'openai-compatible', model: 'llama3.2:3b', isDemo: false });
    }
  });

  it('tells members a provider found on this computer apart from one the operator configured', () => {
    const found = readOpenAiChatConfig({ ...LOCAL_OLLAMA, CHAT_PROVIDER_SOURCE: 'detected', CHAT_PROVIDER_SERVER: 'Ollama' })!;
    expect(describeProvider(new OpenAiChatProvider(found))).toEqual({
      kind: 'openai-compatible',
      model: 'llama3.2:3b',
      isDemo: false,
      source: 'detected',
      server: 'Ollama',
    });
    const configured = readOpenAiChatConfig({ CHAT_API_BASE_URL: 'https://api.openai.com/v1', CHAT_MODEL: 'gpt-4o-mini' })!;
    expect(describeProvider(new OpenAiChatProvider(configured))).toMatchObject({ source: 'configured', server: null });
  });
});
