import { accountDataEvents, accountDataRpc } from './account-data';
import { CHAT_LIVE_SUBJECTS, CHAT_STOP_SUBJECT, chatEvents, chatRpc } from './chat';
import { STORY_LIVE_SUBJECTS, storyEvents, storyRpc } from './stories';
import type { EventDef, RpcDef } from './contract';
import { ACHIEVEMENTS_LIVE_SUBJECTS, SESSION_ENDED_SUBJECT, TOKENS_LIVE_SUBJECTS, identityEvents, identityRpc } from './identity';
import { GENERATION_CANCEL_SUBJECT, GENERATION_LIVE_SUBJECTS, mediaEvents, mediaRpc } from './media';

/** The processes that use the bus. Each signs in to NATS as itself and may do only what its row below allows. */
export const BUS_PRINCIPALS = ['gateway', 'identity', 'chat', 'media'] as const;
export type BusPrincipal = (typeof BUS_PRINCIPALS)[number];

export const isBusPrincipal = (value: string): value is BusPrincipal => (BUS_PRINCIPALS as readonly string[]).includes(value);

/** What one principal may do on the bus. Everything not listed is refused, by NATS and by the in-process bus alike. */
export interface BusGrant {
  /** RPCs it calls. */
  requests: readonly RpcDef[];
  /** RPCs it answers; its instances share them as a queue group. */
  serves: readonly RpcDef[];
  /** Event types it appends to the stream (through its outbox). */
  publishesEvents: readonly EventDef[];
  /** Durable consumers it owns, by name, with the event types each reads. */
  durableConsumers: Readonly<Record<string, readonly EventDef[]>>;
  /** Event types it follows from "now on" with one ephemeral consumer per instance, each on one event type. */
  tailsEvents: readonly EventDef[];
  /** Follows the whole event stream (`evt.>`) from "now on" with one ephemeral consumer per instance: operators' live view. */
  tailsAllEvents: boolean;
  /** Lists the running service instances and their live state (`$SRV.INFO`): operators' view of the platform. */
  discoversServices: boolean;
  /** Live (not stored) subjects it publishes and subscribes to; NATS wildcards allowed. */
  publishesLive: readonly string[];
  subscribesLive: readonly string[];
}

const all = <T>(definitions: Record<string, T>): T[] => Object.values(definitions);

/**
 * Who may do what on the bus: one table, as data. NATS users and their subject permissions are
 * generated from it (`npm run nats:config`), and the in-process bus enforces it too, so a call
 * outside it fails in both modes. Only the gateway carries passwords and session tokens (identity's
 * login, register and session RPCs); only identity answers them.
 */
export const BUS_PERMISSIONS: Readonly<Record<BusPrincipal, BusGrant>> = {
  gateway: {
    requests: [
      identityRpc.register,
      identityRpc.login,
      identityRpc.logout,
      identityRpc.resolveSession,
      identityRpc.createAccessToken,
      identityRpc.listAccessTokens,
      identityRpc.revokeAccessToken,
      identityRpc.getStats,
      identityRpc.getQuotas,
      identityRpc.grantTokens,
      identityRpc.recordInterest,
      identityRpc.fileReport,
      identityRpc.fileTakedown,
      identityRpc.listCases,
      identityRpc.takeAction,
      identityRpc.listAudit,
      identityRpc.listNotices,
      identityRpc.dismissNotice,
      identityRpc.grantRole,
      identityRpc.findMember,
      identityRpc.updatePreferences,
      identityRpc.updateProfile,
      identityRpc.getAchievements,
      identityRpc.getPlan,
      ...all(chatRpc),
      ...all(storyRpc),
      ...all(mediaRpc),
      ...all(accountDataRpc),
    ],
    serves: [],
    publishesEvents: [],
    durableConsumers: {},
    tailsEvents: [],
    // The operator screen: the live view of every event, and the services that are up with their circuits and queues.
    tailsAllEvents: true,
    discoversServices: true,
    publishesLive: [],
    subscribesLive: [
      CHAT_LIVE_SUBJECTS,
      STORY_LIVE_SUBJECTS,
      GENERATION_LIVE_SUBJECTS,
      TOKENS_LIVE_SUBJECTS,
      ACHIEVEMENTS_LIVE_SUBJECTS,
      SESSION_ENDED_SUBJECT,
    ],
  },
  identity: {
    requests: [],
    serves: [...all(identityRpc), accountDataRpc.exportIdentity, accountDataRpc.deleteAccount],
    publishesEvents: [...all(identityEvents), accountDataEvents.accountDeleted],
    durableConsumers: {
      // The dashboard counters and the achievements derived from them (services/identity/src/stats/stats.projection.ts).
      'identity-stats': [
        chatEvents.messageCreated,
        chatEvents.characterCreated,
        storyEvents.storyStarted,
        mediaEvents.imageGenerated,
        mediaEvents.visibilityChanged,
        mediaEvents.imageLiked,
        mediaEvents.imageUnliked,
        mediaEvents.imageDeleted,
      ],
    },
    tailsEvents: [],
    tailsAllEvents: false,
    discoversServices: false,
    publishesLive: [TOKENS_LIVE_SUBJECTS, ACHIEVEMENTS_LIVE_SUBJECTS, SESSION_ENDED_SUBJECT],
    subscribesLive: [],
  },
  chat: {
    requests: [
      identityRpc.debitTokens,
      identityRpc.refundTokens,
      identityRpc.consumeQuota,
      identityRpc.getQuotas,
      // The member's first name, for {{user}} when they set no persona.
      identityRpc.getPublicProfiles,
    ],
    serves: [...all(chatRpc), ...all(storyRpc), accountDataRpc.exportChat, accountDataRpc.exportChatMessages],
    publishesEvents: [...all(chatEvents), ...all(storyEvents)],
    durableConsumers: {
      // Moderators' decisions on characters and replies, and suspensions (services/chat/src/moderation).
      'chat-moderation': [identityEvents.moderationActioned, identityEvents.memberSuspended, identityEvents.memberUnsuspended],
      // A deleted member's conversations, messages and characters (services/chat/src/account-data).
      'chat-account-erasure': [accountDataEvents.accountDeleted],
    },
    tailsEvents: [],
    tailsAllEvents: false,
    discoversServices: false,
    // Replies and passages stream to the gateway; a stop reaches whichever chat instance writes the turn.
    publishesLive: [CHAT_LIVE_SUBJECTS, STORY_LIVE_SUBJECTS, CHAT_STOP_SUBJECT],
    subscribesLive: [CHAT_STOP_SUBJECT],
  },
  media: {
    requests: [identityRpc.getPublicProfiles, identityRpc.debitTokens, identityRpc.refundTokens],
    serves: [...all(mediaRpc), accountDataRpc.exportMedia],
    publishesEvents: all(mediaEvents),
    durableConsumers: {
      'media-image-files': [mediaEvents.imageDeleted],
      // A deleted member's images, likes, jobs, photos and files (services/media/src/account-data).
      'media-account-erasure': [accountDataEvents.accountDeleted],
      // Moderators' decisions on images (with hash blocking), and suspensions (services/media/src/moderation).
      'media-moderation': [identityEvents.moderationActioned, identityEvents.memberSuspended, identityEvents.memberUnsuspended],
    },
    tailsEvents: [],
    tailsAllEvents: false,
    discoversServices: false,
    // Job updates go to the gateway; a cancel reaches whichever media instance draws the job.
    publishesLive: [GENERATION_LIVE_SUBJECTS, GENERATION_CANCEL_SUBJECT],
    subscribesLive: [GENERATION_CANCEL_SUBJECT],
  },
};
