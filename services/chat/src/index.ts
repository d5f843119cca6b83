import { PendingCharges, type ServiceDefinition, UnitOfWork, circuitStates } from '@app/kit';
import { MODERATION_MODEL_CIRCUIT, modelStageEnvironment, openContentPolicy, policyEnvironment } from '@app/policy';
import { type ChatLiveUpdate, chatEvents } from '@app/schema';
import { openChatAccountDataStore, serveChatAccountData, startChatErasure } from './account-data/account-data';
import { CardParser } from './cards/card-parser';
import { CharactersService } from './characters/characters.service';
import { type ChatConfig, chatEnvironment, readChatConfig } from './chat.config';
import { serveChat } from './chat.handlers';
import { type ChatStore, chatRepositories } from './chat.store';
import { ConversationsService } from './conversations/conversations.service';
import { RepliesService } from './conversations/replies.service';
import { publishChatUpdate, replyTurns } from './conversations/reply-turns';
import { GenerationEngine } from './generation/engine';
import { MemberLedger } from './member-ledger';
import { ChatInitial1763800000001 } from './migrations/1763800000001-chat-initial';
import { ChatCore1763900000000 } from './migrations/1763900000000-chat-core';
import { ChatPendingCharges1764200000000 } from './migrations/1764200000000-chat-pending-charges';
import { ChatModeration1764900000000 } from './migrations/1764900000000-chat-moderation';
import { ChatModerationMarks1765000000000 } from './migrations/1765000000000-chat-moderation-marks';
import { ChatStories1766000000000 } from './migrations/1766000000000-chat-stories';
import { ChatTreesAndPrompts1766100000000 } from './migrations/1766100000000-chat-trees-and-prompts';
import { ChatModeration, startModerationConsumer } from './moderation/moderation.service';
import type { ChatProvider } from './providers/chat-provider';
import { CHAT_PROVIDER_CIRCUIT, CircuitBreakerProvider } from './providers/circuit-breaker';
import { PersonasService, identityNames } from './personas/personas.service';
import { PassageTurns } from './stories/passage-turns';
import { serveStories } from './stories/stories.handlers';
import { StoriesService } from './stories/stories.service';
import { StoryLedger } from './stories/story-ledger';
import { StoryLive } from './stories/story-live';
import { DemoChatProvider } from './providers/demo.provider';
import { OpenAiChatProvider, chatProviderEnvironment, readOpenAiChatConfig } from './providers/openai-chat.provider';

export type { ChatProvider } from './providers/chat-provider';
export { DemoChatProvider } from './providers/demo.provider';
export { OpenAiChatProvider, chatProviderEnvironment } from './providers/openai-chat.provider';
export { chatEnvironment } from './chat.config';

export interface ChatServiceOverrides extends Partial<ChatConfig> {
  /** Replaces the provider chosen from the environment (tests). */
  provider?: ChatProvider;
}

/**
 * The provider `CHAT_PROVIDER` names; unset, the OpenAI-compatible API when `CHAT_API_BASE_URL` is set (by the operator,
 * or by `npm start` when it found a server on this computer), else the offline demo responder.
 */
export function chooseProvider(env: NodeJS.ProcessEnv, config: ChatConfig): ChatProvider {
  const wanted = chatProviderEnvironment.parse(env).CHAT_PROVIDER;
  const openAi = wanted === 'demo' ? null : readOpenAiChatConfig(env);
  if (wanted === 'openai' && !openAi) throw new Error('CHAT_PROVIDER=openai needs CHAT_API_BASE_URL and CHAT_MODEL');
  const provider = openAi ? new OpenAiChatProvider(openAi) : new DemoChatProvider(config.demoChunkDelayMs);
  // A dead provider fails fast (and refunds) instead of holding every member's reply until it times out. The demo
  // never fails, but behind the same breaker operators see its circuit like a real provider's.
  return new CircuitBreakerProvider(provider, { name: CHAT_PROVIDER_CIRCUIT, failureThreshold: 5, cooldownMs: 30_000 });
}

/** Conversations, messages, characters and stories; replies and passages are written here, streamed live, and charged via identity. */
export const createChatService = (overrides: ChatServiceOverrides = {}): ServiceDefinition => ({
  name: 'chat',
  schema: 'chat',
  entities: [],
  environments: [chatEnvironment, chatProviderEnvironment, policyEnvironment, modelStageEnvironment],
  migrations: [
    ChatInitial1763800000001,
    ChatCore1763900000000,
    ChatPendingCharges1764200000000,
    ChatModeration1764900000000,
    ChatModerationMarks1765000000000,
    ChatStories1766000000000,
    ChatTreesAndPrompts1766100000000,
  ],
  async start({ bus, db, env }) {
    const { provider: providerOverride, ...configOverrides } = overrides;
    const config = { ...readChatConfig(env), ...configOverrides };
    const provider = providerOverride ?? chooseProvider(env, config);
    const store: ChatStore = new UnitOfWork(db, chatRepositories);
    const charges = new PendingCharges(db, bus, { sweepIntervalMs: config.sweepIntervalMs });
    const ledger = new MemberLedger(bus, charges);
    const policy = openContentPolicy(env, (refusal) => bus.publishEvent(chatEvents.contentRefused, refusal, refusal.userId));
    const storyLive = new StoryLive(bus);
    const engine = new GenerationEngine(
      [replyTurns(store, bus), new PassageTurns(store, storyLive)],
      ledger,
      provider,
      bus,
      { leaseMs: config.replyLeaseMs, flushIntervalMs: config.flushIntervalMs, sweepIntervalMs: config.sweepIntervalMs },
      policy,
    );
    const cards = new CardParser({
      threads: config.cardParserThreads,
      queue: config.cardParserQueue,
      timeoutMs: config.cardParseTimeoutMs,
    });
    const characters = new CharactersService(store, ledger, cards, policy);
    const publish = (update: ChatLiveUpdate) => publishChatUpdate(bus, update);
    const personas = new PersonasService(store, identityNames(bus), policy);
    const conversations = new ConversationsService(store, characters, engine, publish, config, policy, personas);
    const replies = new RepliesService(store, ledger, characters, engine, publish, provider, config, policy, personas);
    const stories = new StoriesService(
      store,
      new StoryLedger(bus, charges),
      characters,
      engine,
      provider,
      { leaseMs: config.replyLeaseMs, sendsPerMinute: config.sendsPerMinute },
      policy,
      storyLive,
    );
    const moderation = new ChatModeration(store);
    const handlers = await serveChat(bus, { conversations, replies, characters, personas, moderation }, provider);
    const accountData = openChatAccountDataStore(db);
    // Discovery and the metrics show the provider's circuit and the content policy's model's (when one is configured).
    bus.reportStatus(() => ({ circuits: circuitStates([CHAT_PROVIDER_CIRCUIT, MODERATION_MODEL_CIRCUIT]) }));
    // Handlers stop first so no new reply starts while the engine winds down; card threads go last.
    return [
      ...handlers,
      ...(await serveStories(bus, stories)),
      ...(await serveChatAccountData(bus, accountData)),
      await startModerationConsumer(bus, moderation),
      await startChatErasure(bus, accountData),
      await engine.start(),
      charges.start(),
      { unsubscribe: () => cards.close() },
    ];
  },
});

export const chatService = createChatService();
