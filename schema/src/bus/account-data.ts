import { z } from 'zod';
import { defineEvent, defineRpc } from './contract';

/**
 * A member's own data (TRUST-AND-SAFETY 26): each service exports what it holds about the member, and erases it when
 * identity announces the account deleted (decision 037).
 */

const UserRef = z.object({ userId: z.string().uuid() });
/** One stored row as JSON: exports are for the member to read, not for another program to parse by contract. */
const Row = z.record(z.string(), z.unknown());

export const AccountDeleted = z.object({ userId: z.string().uuid(), deletedAt: z.string().datetime() });
export type AccountDeleted = z.infer<typeof AccountDeleted>;

export const accountDataEvents = {
  /** Identity has deleted the member (in the same transaction); chat and media erase what they hold from it. */
  accountDeleted: defineEvent('evt.identity.account.deleted', 1, AccountDeleted),
} as const;

/**
 * Exports come a page at a time, so no bus message has to hold a member's whole history (NATS refuses messages over its
 * max_payload, 1 MB by default): a page ends at `limit` rows, or before its rows would pass EXPORT_PAGE_BYTES of JSON
 * (its first row always goes, so a page is larger only when one row is).
 */
export const EXPORT_PAGE_ROWS = 500;
export const EXPORT_PAGE_BYTES = 256 * 1024;

/** Where the next page starts: the ordering key of the last row sent (its values as text), or null on the last page. */
const ExportCursor = z.array(z.string().max(1000)).min(1).max(8);

const ExportPageInput = UserRef.extend({
  after: ExportCursor.nullable().default(null),
  limit: z.number().int().min(1).max(EXPORT_PAGE_ROWS).default(EXPORT_PAGE_ROWS),
});

/** One page of one part of a member's export. */
export const ExportPage = z.object({ rows: z.array(Row), next: ExportCursor.nullable() });
export type ExportPage = z.infer<typeof ExportPage>;

/**
 * Identity's parts: the account row (without its password hash), ledger, quota uses, counters, access tokens (without their
 * hashes), notices, the reports the member filed, and `other`: rows of any other identity table keyed by member
 * (achievements…), each as `{ table, row }`, table by table.
 */
export const IDENTITY_EXPORT_PARTS = [
  'account',
  'ledger',
  'quotaUses',
  'stats',
  'accessTokens',
  'notices',
  'reportsFiled',
  'other',
] as const;
export type IdentityExportPart = (typeof IDENTITY_EXPORT_PARTS)[number];

/** Chat's parts (messages have their own RPC). */
export const CHAT_EXPORT_PARTS = ['conversations', 'characters', 'stories', 'storyPassages', 'persona'] as const;
export type ChatExportPart = (typeof CHAT_EXPORT_PARTS)[number];

/**
 * Media's parts: images (with the likes they received), the member's likes, generation jobs, `other` (as identity's: Self-AI
 * photos, the profile picture…), and the stored files to put in the archive, as ExportFile rows: originals of images, Self-AI
 * photos' files, the profile picture's renditions (for these, `limit` counts images, photos or pictures: a few files each).
 */
export const MEDIA_EXPORT_PARTS = ['images', 'likesGiven', 'generations', 'other', 'imageFiles', 'photoFiles', 'avatarFiles'] as const;
export type MediaExportPart = (typeof MEDIA_EXPORT_PARTS)[number];

/** A stored file of the member's, named for the archive (the rows of media's file parts). */
export const ExportFile = z.object({
  key: z.string(),
  /** The path inside the archive, e.g. `images/<id>.png`. */
  path: z.string(),
});
export type ExportFile = z.infer<typeof ExportFile>;

/** A row of an `other` part: which table it comes from, and the row. */
export const ExportTableRow = z.object({ table: z.string(), row: Row });
export type ExportTableRow = z.infer<typeof ExportTableRow>;

/** The member's password, checked again before the account goes. */
export const DeleteAccountInput = z.object({
  password: z.string({ error: 'Enter your password' }).min(1, 'Enter your password').max(1024),
});
export type DeleteAccountInput = z.infer<typeof DeleteAccountInput>;

export const accountDataRpc = {
  exportIdentity: defineRpc('svc.identity.member.export', ExportPageInput.extend({ part: z.enum(IDENTITY_EXPORT_PARTS) }), ExportPage),
  /** Re-checks the password, then deletes the account in one transaction and announces it (`accountDeleted`). */
  deleteAccount: defineRpc('svc.identity.account.delete', UserRef.extend({ input: DeleteAccountInput }), AccountDeleted),
  exportChat: defineRpc('svc.chat.member.export', ExportPageInput.extend({ part: z.enum(CHAT_EXPORT_PARTS) }), ExportPage),
  /** The member's messages, oldest first. */
  exportChatMessages: defineRpc('svc.chat.member.messages', ExportPageInput, ExportPage),
  exportMedia: defineRpc('svc.media.member.export', ExportPageInput.extend({ part: z.enum(MEDIA_EXPORT_PARTS) }), ExportPage),
} as const;
