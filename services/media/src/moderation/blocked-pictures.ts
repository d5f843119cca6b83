import { AppError, type ContentRefusal } from '@app/schema';
import type { BlockedMatch } from './moderation.repository';

export const BLOCKED_PICTURE_MESSAGE = 'This image matches content that was removed from the site.';

/** The content policy's refusal, for a picture instead of a text: clients translate it by `policyCategory`. */
export const blockedPictureRejected = (): AppError =>
  new AppError('CONTENT_REJECTED', BLOCKED_PICTURE_MESSAGE, { policyCategory: 'blocked_hash' });

/** The `evt.media.content.refused` record of a blocked picture: which hash matched, never the picture. */
export const blockedPictureRefusal = (path: 'image.publish' | 'image.generated', userId: string, match: BlockedMatch): ContentRefusal => ({
  path,
  reason: 'blocked_hash',
  stage: 'hash',
  userId,
  evidence: [match.evidence],
  text: null,
});
