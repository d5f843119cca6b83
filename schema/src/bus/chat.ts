import { z } from 'zod';
import { ContentRefusal, defineEvent, defineRpc } from './contract';
import { ContentRating, MODERATION_LIMITS, ModerationState, ModerationTarget, ViewerRatings } from './moderation';
import { ProviderSource } from './media';
import { pageOf, paged } from './paging';

/** Limits that keep prompts, storage and rendering bounded (SPEC §5 names none; these are ours). */
export const CHAT_LIMITS = {
  titleLength: 120,
  messageLength: 8000,
  characterNameLength: 80,
  characterTextLength: 16_000,
  traitLength: 40,
  traits: 20,
  pageSizeMax: 100,
  /** The compatible REST lists answer whole arrays, page after page, up to these many items. */
  conversationsMax: 200,
  charactersMax: 500,
  /** The public characters a page of Discover shows when the client names no page size. */
  publicCharactersPageDefault: 8,
  /** A character card file (PNG or JSON); the chat service's card parser holds files to the same bound. */
  cardFileBytes: 8 * 1024 * 1024,
} as const;

/**
 * A reply the member stops keeps its charge only once it has this many characters (about a short sentence); stopped
 * earlier, it produced almost nothing and is refunded (decision 036).
 */
export const STOPPED_REPLY_CHARGED_FROM_CHARS = 40;

/** A member's chat persona: a name and a short description (SillyTavern's personas). */
const CHAT_PERSONA_NAME_LENGTH = 60;
const CHAT_PERSONA_DESCRIPTION_LENGTH = 1000;

/** The suggested personality traits of the character creator (SPEC §5). */
export const SUGGESTED_TRAITS = [
  'Creative',
  'Analytical',
  'Empathetic',
  'Humorous',
  'Wise',
  'Energetic',
  'Calm',
  'Adventurous',
  'Mysterious',
  'Friendly',
  'Intellectual',
  'Artistic',
] as const;

/** Sampler keys a model server may take beyond the named ones (min_p, top_k, repetition_penalty…); never these. */
const RESERVED_SAMPLER_KEYS = new Set([
  ...['model', 'messages', 'stream', 'stream_options', 'n', 'best_of', 'tools', 'tool_choice', 'functions', 'function_call', 'user'],
  // The named settings have their own fields; these would lift the reply-length cap.
  ...['temperature', 'top_p', 'stop', 'presence_penalty', 'frequency_penalty', 'max_tokens', 'max_completion_tokens'],
  ...['n_predict', 'num_predict', 'max_length', 'max_new_tokens'],
]);

/**
 * How a reply or passage is sampled, per character or per conversation; a field left out takes the provider's
 * default. `extras` pass through to servers that take more (llama.cpp, vLLM, Ollama's OpenAI API).
 */
export const SamplerSettings = z.object({
  temperature: z.number().min(0, 'Temperature must be between 0 and 2').max(2, 'Temperature must be between 0 and 2').nullish(),
  topP: z.number().gt(0, 'top_p must be above 0 and at most 1').max(1, 'top_p must be above 0 and at most 1').nullish(),
  maxTokens: z
    .number()
    .int()
    .min(16, 'Max tokens must be between 16 and 4096')
    .max(4096, 'Max tokens must be between 16 and 4096')
    .nullish(),
  stop: z
    .array(z.string().min(1, 'A stop sequence cannot be empty').max(32, 'A stop sequence can be at most 32 characters'))
    .max(4, 'At most 4 stop sequences')
    .nullish(),
  presencePenalty: z.number().min(-2, 'Penalties must be between -2 and 2').max(2, 'Penalties must be between -2 and 2').nullish(),
  frequencyPenalty: z.number().min(-2, 'Penalties must be between -2 and 2').max(2, 'Penalties must be between -2 and 2').nullish(),
  extras: z
    .record(
      z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'Extra sampler names are lower-case letters, digits and _'),
      z.union([z.number(), z.boolean(), z.string().max(200)]),
    )
    .refine((extras) => Object.keys(extras).length <= 8, 'At most 8 extra sampler settings')
    .refine((extras) => !Object.keys(extras).some((key) => RESERVED_SAMPLER_KEYS.has(key)), 'That extra sampler setting is not allowed')
    .nullish(),
});
export type SamplerSettings = z.infer<typeof SamplerSettings>;

/** What made it into a reply's prompt (estimated tokens): the member's view of the context budget. */
export const PromptReport = z.object({
  contextTokens: z.number().int(),
  /** Room kept for the reply. */
  replyTokens: z.number().int(),
  promptTokens: z.number().int(),
  /** The character's definitions, the member's persona and the instructions. */
  characterTokens: z.number().int(),
  summaryTokens: z.number().int(),
  messagesIncluded: z.number().int(),
  /** Messages of the branch the prompt could draw on (at most the newest 200). */
  messagesTotal: z.number().int(),
  messageTokens: z.number().int(),
  /** The oldest message sent; older ones reach the model only through the summary. */
  firstIncludedSeq: z.number().int().nullable(),
  lore: z.array(z.object({ label: z.string(), tokens: z.number().int(), keys: z.array(z.string()) })),
  /** Lorebook entries that came up but were left out (over budget, disabled, or their chance did not come). */
  loreSkipped: z.array(z.object({ label: z.string(), reason: z.enum(['budget', 'disabled', 'probability']) })),
});
export type PromptReport = z.infer<typeof PromptReport>;

/** Who the member plays in chats: `{{user}}` is the name (their first name when empty); the description tells characters about them. */
export const MemberPersonaInput = z.object({
  name: z.string().trim().max(CHAT_PERSONA_NAME_LENGTH, `The name must be at most ${CHAT_PERSONA_NAME_LENGTH} characters`),
  description: z
    .string()
    .trim()
    .max(CHAT_PERSONA_DESCRIPTION_LENGTH, `The description must be at most ${CHAT_PERSONA_DESCRIPTION_LENGTH} characters`),
});
export const MemberPersona = z.object({
  /** The name set, or '' to use the member's first name. */
  name: z.string(),
  description: z.string(),
  /** What `{{user}}` stands for now. */
  displayName: z.string(),
});
export type MemberPersona = z.infer<typeof MemberPersona>;

export const DEFAULT_CONVERSATION_TITLE = 'New Conversation';

const Id = z.string().uuid();
const UserRef = z.object({ userId: Id });

const longText = (label: string) =>
  z
    .string()
    .max(CHAT_LIMITS.characterTextLength, `${label} must be at most ${CHAT_LIMITS.characterTextLength} characters`)
    .transform((value) => value.trim());

/** Traits: trimmed, empty ones dropped, duplicates (case-insensitive) dropped, order kept (SPEC §5). */
export const PersonalityTraits = z
  .array(z.string().max(CHAT_LIMITS.traitLength, `A trait must be at most ${CHAT_LIMITS.traitLength} characters`))
  .max(CHAT_LIMITS.traits, `A character can have at most ${CHAT_LIMITS.traits} traits`)
  .transform((traits) => {
    const seen = new Set<string>();
    const kept: string[] = [];
    for (const raw of traits) {
      const trait = raw.trim();
      if (!trait || seen.has(trait.toLowerCase())) continue;
      seen.add(trait.toLowerCase());
      kept.push(trait);
    }
    return kept;
  });

/** A conversation's title, trimmed; empty means the default title (SPEC §4). */
export const ConversationTitle = z
  .string({ error: 'The title must be text' })
  .trim()
  .max(CHAT_LIMITS.titleLength, `The title must be at most ${CHAT_LIMITS.titleLength} characters`);

/** A member's message: about 2k tokens at most, which leaves room in the prompt for the persona and the history. */
export const MessageContent = z
  .string({ error: 'Please enter a message' })
  .max(CHAT_LIMITS.messageLength, `A message can be at most ${CHAT_LIMITS.messageLength} characters`)
  .refine((value) => value.trim().length > 0, 'Please enter a message');

/** The fields a member edits, without defaults: shared by creation (which adds them) and updates (which must not). */
const CharacterFields = z.object({
  name: z
    .string({ error: 'Please enter a name for your character.' })
    .trim()
    .min(1, 'Please enter a name for your character.')
    .max(CHAT_LIMITS.characterNameLength, `The name must be at most ${CHAT_LIMITS.characterNameLength} characters`),
  /** Trimmed; empty means "no description" (SPEC §5). */
  description: longText('The description')
    .nullish()
    .transform((value) => value || null),
  personalityTraits: PersonalityTraits,
  isPublic: z.boolean(),
  /** Publishing without one takes UNRATED_DEFAULT (explicit). */
  rating: ContentRating.nullish(),
  scenario: longText('The scenario').nullish(),
  greeting: longText('The greeting').nullish(),
  exampleDialogue: longText('The example dialogue').nullish(),
  systemPrompt: longText('The system prompt').nullish(),
  /** How the character's replies are sampled; a conversation's own settings win. */
  sampling: SamplerSettings.nullish(),
});

/** What a member creates; the create payload of SPEC §7 (`name, description, personalityTraits, isPublic`) plus persona fields. */
export const CharacterInput = CharacterFields.extend({
  personalityTraits: PersonalityTraits.default([]),
  isPublic: z.boolean().default(false),
});
export type CharacterInput = z.input<typeof CharacterInput>;

/** An update changes only the fields it names: no defaults here, or a field left out would be reset to one. */
export const CharacterPatch = CharacterFields.partial();
export type CharacterPatch = z.input<typeof CharacterPatch>;

export const Character = z.object({
  id: Id,
  ownerId: Id,
  name: z.string(),
  description: z.string().nullable(),
  avatar: z.string().nullable(),
  personality: z.object({ traits: z.array(z.string()) }),
  isPublic: z.boolean(),
  rating: ContentRating,
  moderationState: ModerationState,
  scenario: z.string(),
  greeting: z.string(),
  exampleDialogue: z.string(),
  systemPrompt: z.string(),
  sampling: SamplerSettings.nullable(),
  alternateGreetings: z.array(z.string()),
  tags: z.array(z.string()),
  creator: z.string(),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
});
export type Character = z.infer<typeof Character>;

export const Conversation = z.object({
  id: Id,
  ownerId: Id,
  title: z.string(),
  characterId: Id.nullable(),
  characterName: z.string().nullable(),
  /** The last message of the branch shown; null before the first message. */
  activeLeafId: Id.nullable(),
  /** This conversation's sampler settings, over its character's; null: none of its own. */
  sampling: SamplerSettings.nullable(),
  /** A model of the provider's list instead of its default; null: the default. */
  model: z.string().nullable(),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
});
export type Conversation = z.infer<typeof Conversation>;

export const MESSAGE_STATUSES = ['complete', 'streaming', 'failed', 'cancelled'] as const;
export const MessageStatus = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatus>;

/** One version of a message: the message itself or a sibling (same parent, same role), as a "swipe". */
export const Swipe = z.object({
  id: Id,
  content: z.string(),
  status: MessageStatus,
  model: z.string().nullable(),
  errorCode: z.string().nullable(),
  createdAt: z.string().datetime(),
});
export type Swipe = z.infer<typeof Swipe>;

export const Message = z.object({
  id: Id,
  conversationId: Id,
  /** Position in the conversation, growing along every branch; cursors are built from it. */
  seq: z.number().int(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  status: MessageStatus,
  /** The model (or 'demo') that wrote an assistant reply. */
  model: z.string().nullable(),
  errorCode: z.string().nullable(),
  /** The message this one answers or follows; null for the first message of a branch (a conversation is a tree). */
  parentId: Id.nullable(),
  /** This message's place among its versions (`swipes`: its siblings of the same role, itself included, oldest first). */
  swipeIndex: z.number().int(),
  swipes: z.array(Swipe),
  /** Written by the member as a new version of a reply, rather than generated. */
  edited: z.boolean(),
  /** For a generated reply: what made it into its prompt. */
  promptReport: PromptReport.nullable(),
  /** `removed`: a moderator removed this reply; its text is no longer served. */
  moderationState: ModerationState,
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
});
export type Message = z.infer<typeof Message>;

export const MessagePage = z.object({
  messages: z.array(Message),
  /** True when older messages exist before the first one returned. */
  hasOlder: z.boolean(),
});
export type MessagePage = z.infer<typeof MessagePage>;

/** A member's conversations are always counted (one member keeps at most 1000). */
export const ConversationPage = pageOf(Conversation).extend({ totalCount: z.number().int() });
export type ConversationPage = z.infer<typeof ConversationPage>;
export const CharacterPage = pageOf(Character);
export type CharacterPage = z.infer<typeof CharacterPage>;

/** What writes replies: the offline demo responder, or a server speaking the OpenAI chat API (OpenAI, Ollama, vLLM, LM Studio…). */
export const CHAT_PROVIDER_KINDS = ['demo', 'openai-compatible'] as const;
export type ChatProviderKind = (typeof CHAT_PROVIDER_KINDS)[number];
export const ChatProviderInfo = z.object({
  kind: z.enum(CHAT_PROVIDER_KINDS),
  model: z.string(),
  isDemo: z.boolean(),
  source: ProviderSource.default('configured'),
  /** The server product when known ('Ollama', 'LM Studio', 'llama.cpp', 'vLLM'), shown to members with the model. */
  server: z.string().nullable().default(null),
});
export type ChatProviderInfo = z.infer<typeof ChatProviderInfo>;

const CharacterAvatar = z.object({ contentType: z.string(), bodyBase64: z.string() });

const ConversationRef = UserRef.extend({ conversationId: Id });
const CharacterRef = UserRef.extend({ characterId: Id });

export const chatRpc = {
  /** The member's conversations, most recently active first; 100 when no page size is named. */
  listConversations: defineRpc('svc.chat.conversation.list', paged(UserRef), ConversationPage),
  getConversation: defineRpc('svc.chat.conversation.get', ConversationRef, Conversation),
  createConversation: defineRpc(
    'svc.chat.conversation.create',
    UserRef.extend({ title: ConversationTitle.nullish(), characterId: Id.nullish(), ratings: ViewerRatings }),
    Conversation,
  ),
  /** No title (a PATCH that names none) leaves the conversation as it is. */
  renameConversation: defineRpc(
    'svc.chat.conversation.rename',
    ConversationRef.extend({ title: ConversationTitle.optional() }),
    Conversation,
  ),
  deleteConversation: defineRpc('svc.chat.conversation.delete', ConversationRef, z.object({ ok: z.boolean() })),
  listMessages: defineRpc(
    'svc.chat.message.list',
    ConversationRef.extend({
      /** Newest N messages before `beforeSeq` (or the newest overall); returned oldest first. */
      limit: z.number().int().min(1).max(CHAT_LIMITS.pageSizeMax).default(30),
      beforeSeq: z.number().int().nullish(),
    }),
    MessagePage,
  ),
  getMessage: defineRpc('svc.chat.message.get', UserRef.extend({ messageId: Id }), Message),
  /** Stores the member's message and starts the reply in the chat service; returns at once. */
  sendMessage: defineRpc(
    'svc.chat.message.send',
    ConversationRef.extend({ content: MessageContent }),
    z.object({ userMessage: Message, assistantMessage: Message }),
  ),
  /** Writes another version of a reply (the last one shown when no messageId), as its sibling; the new version is shown. */
  regenerateReply: defineRpc('svc.chat.reply.regenerate', ConversationRef.extend({ messageId: Id.nullish() }), Message),
  /** Shows version `index` of a message (its sibling), with the newest branch below it; returns that version. */
  selectSwipe: defineRpc('svc.chat.reply.swipe', UserRef.extend({ messageId: Id, index: z.number().int().min(0) }), Message),
  /**
   * A new version of a message beside it (the original stays): a member's message is sent again as written, and
   * answered (1 token); a reply takes the member's text as is, without generation.
   */
  editMessage: defineRpc(
    'svc.chat.message.edit',
    UserRef.extend({ messageId: Id, content: MessageContent }),
    z.object({ message: Message, reply: Message.nullable() }),
  ),
  /** Deletes a message with every message after it on its branches; the branch shown moves to what remains. */
  deleteMessage: defineRpc(
    'svc.chat.message.delete',
    UserRef.extend({ messageId: Id }),
    z.object({ conversation: Conversation, deleted: z.number().int() }),
  ),
  /** A new version of a reply that carries on from its text (1 token); the original stays as a sibling. */
  continueReply: defineRpc('svc.chat.reply.continue', UserRef.extend({ messageId: Id }), Message),
  /**
   * Shows the branch through a message: `latest` continues to the newest message below it (switching branches),
   * `here` ends the branch shown at it, so the next message starts a new branch from there.
   */
  selectBranch: defineRpc('svc.chat.branch.select', UserRef.extend({ messageId: Id, end: z.enum(['latest', 'here']) }), Conversation),
  stopReply: defineRpc('svc.chat.reply.stop', ConversationRef, z.object({ stopped: z.boolean() })),
  providerInfo: defineRpc('svc.chat.provider.info', z.object({}), ChatProviderInfo),
  /** The models the provider lists (its default first); a conversation may choose one. */
  listModels: defineRpc('svc.chat.provider.models', z.object({}), z.object({ models: z.array(z.string()), defaultModel: z.string() })),
  /** Sampler settings and model for one conversation; null clears them (the character's and the provider's apply). */
  updateConversationSettings: defineRpc(
    'svc.chat.conversation.settings',
    ConversationRef.extend({ sampling: SamplerSettings.nullish(), model: z.string().max(200).nullish() }),
    Conversation,
  ),
  getPersona: defineRpc('svc.chat.persona.get', UserRef, MemberPersona),
  updatePersona: defineRpc('svc.chat.persona.update', UserRef.extend({ persona: MemberPersonaInput }), MemberPersona),

  /** The member's characters, newest first; 100 when no page size is named. */
  listCharacters: defineRpc('svc.chat.character.list', paged(UserRef), CharacterPage),
  /** Public characters in the viewer's ratings, newest first (8 when no page size is named); not counted (totalCount null). */
  listPublicCharacters: defineRpc('svc.chat.character.public', paged(UserRef.extend({ ratings: ViewerRatings })), CharacterPage),
  /** The owner's character, or a public one in the viewer's ratings. */
  getCharacter: defineRpc('svc.chat.character.get', CharacterRef.extend({ ratings: ViewerRatings }), Character),
  createCharacter: defineRpc('svc.chat.character.create', UserRef.extend({ input: CharacterInput }), Character),
  updateCharacter: defineRpc('svc.chat.character.update', CharacterRef.extend({ input: CharacterPatch }), Character),
  deleteCharacter: defineRpc('svc.chat.character.delete', CharacterRef, z.object({ ok: z.boolean() })),
  /** Imports a V1/V2/V3 character card (JSON or PNG, base64). */
  importCharacterCard: defineRpc(
    'svc.chat.character.import',
    UserRef.extend({ fileBase64: z.string().max(Math.ceil(CHAT_LIMITS.cardFileBytes / 3) * 4) }),
    Character,
  ),
  /** Exports the owner's character, or a public one in the viewer's ratings, as a V2+V3 PNG or V2 / V3 JSON card (base64 body). */
  exportCharacterCard: defineRpc(
    'svc.chat.character.export',
    CharacterRef.extend({ format: z.enum(['png', 'json_v2', 'json_v3']), ratings: ViewerRatings }),
    z.object({ fileName: z.string(), contentType: z.string(), bodyBase64: z.string() }),
  ),
  /** The avatar of the owner's character, or of a public one in the viewer's ratings; null when it has none. */
  getCharacterAvatar: defineRpc('svc.chat.character.avatar', CharacterRef.extend({ ratings: ViewerRatings }), CharacterAvatar.nullable()),
  /** Characters and assistant replies as moderators see them, whatever their state; unknown ids are left out. */
  describeContent: defineRpc(
    'svc.chat.moderation.describe',
    z.object({
      characterIds: z.array(Id).max(MODERATION_LIMITS.describeMax).default([]),
      messageIds: z.array(Id).max(MODERATION_LIMITS.describeMax).default([]),
    }),
    z.object({ targets: z.array(ModerationTarget) }),
  ),
  /** A character's avatar for moderators, whatever the character's state; null when it has none. */
  moderatedCharacterAvatar: defineRpc('svc.chat.moderation.avatar', z.object({ characterId: Id }), CharacterAvatar.nullable()),
} as const;

/** Live (not stored) updates on `live.chat.conversation.<conversationId>`, fanned out to GraphQL subscriptions. */
export const ChatLiveUpdate = z.discriminatedUnion('type', [
  z.object({ type: z.literal('typing'), conversationId: Id, typing: z.boolean() }),
  /** `text` belongs at character `offset` of the swipe being written; a client that has less than `offset` characters refetches. */
  z.object({
    type: z.literal('delta'),
    conversationId: Id,
    messageId: Id,
    swipeIndex: z.number().int(),
    offset: z.number().int(),
    text: z.string(),
    /** Provider's chunk timestamp (ms since epoch) when it sent one; used by the latency benchmark. */
    sentAt: z.number().optional(),
  }),
  z.object({ type: z.literal('message'), conversationId: Id, message: Message }),
  /** The branch shown changed (a switch, a branch, a deletion): clients read the messages again. */
  z.object({ type: z.literal('branch'), conversationId: Id, activeLeafId: Id.nullable() }),
  z.object({ type: z.literal('deleted'), conversationId: Id }),
]);
export type ChatLiveUpdate = z.infer<typeof ChatLiveUpdate>;

export const chatLiveSubject = (conversationId: string) => `live.chat.conversation.${conversationId}`;
export const CHAT_LIVE_SUBJECTS = 'live.chat.conversation.*';
/** Broadcast to every chat instance: the one generating the reply stops it. */
export const CHAT_STOP_SUBJECT = 'live.chat.control.stop';

const ReplyRef = z.object({ conversationId: Id, messageId: Id, userId: Id, swipeIndex: z.number().int() });

export const chatEvents = {
  conversationCreated: defineEvent('evt.chat.conversation.created', 1, z.object({ conversationId: Id, characterId: Id.nullable() })),
  conversationDeleted: defineEvent('evt.chat.conversation.deleted', 1, z.object({ conversationId: Id })),
  messageCreated: defineEvent(
    'evt.chat.message.created',
    1,
    z.object({ conversationId: Id, messageId: Id, role: z.enum(['user', 'assistant']), length: z.number().int() }),
  ),
  /** A message and every message after it on its branches were deleted by the member. */
  messagesDeleted: defineEvent('evt.chat.message.deleted', 1, z.object({ conversationId: Id, messageId: Id, count: z.number().int() })),
  replyStarted: defineEvent('evt.chat.reply.started', 1, ReplyRef.extend({ model: z.string(), isDemo: z.boolean() })),
  replyCompleted: defineEvent(
    'evt.chat.reply.completed',
    1,
    ReplyRef.extend({
      model: z.string(),
      latencyMs: z.number().int(),
      firstChunkMs: z.number().int().nullable(),
      promptTokens: z.number().int().nullable(),
      completionTokens: z.number().int().nullable(),
      length: z.number().int(),
    }),
  ),
  replyFailed: defineEvent(
    'evt.chat.reply.failed',
    1,
    ReplyRef.extend({ code: z.string(), cancelled: z.boolean(), refunded: z.boolean(), latencyMs: z.number().int() }),
  ),
  characterCreated: defineEvent(
    'evt.chat.character.created',
    1,
    z.object({ characterId: Id, isPublic: z.boolean(), imported: z.boolean() }),
  ),
  characterUpdated: defineEvent('evt.chat.character.updated', 1, z.object({ characterId: Id, isPublic: z.boolean() })),
  characterDeleted: defineEvent('evt.chat.character.deleted', 1, z.object({ characterId: Id })),
  contentRefused: defineEvent('evt.chat.content.refused', 1, ContentRefusal),
} as const;
