import { type Bus, type Subscription, logger } from '@app/kit';
import {
  AppError,
  type EventEnvelope,
  type ImageVariant,
  MODERATION_LIMITS,
  type ModerationActioned,
  type ModerationState,
  type ModerationTarget,
  identityEvents,
} from '@app/schema';
import type { ImageRow } from '../images/images.repository';
import { type ImagesService, locateVariant } from '../images/images.service';
import type { MediaStore } from '../media.store';
import type { ModerationRepository } from './moderation.repository';

const MODERATION_EVENTS = [identityEvents.moderationActioned, identityEvents.memberSuspended, identityEvents.memberUnsuspended];

/** Moderators' decisions on images and on members, as identity announces them; and images as moderators see them. */
export class ModerationService {
  constructor(
    private readonly store: MediaStore,
    private readonly images: ImagesService,
  ) {}

  /** One moderation event; applying it again, or after a later decision on the same thing, changes nothing. */
  async apply(event: EventEnvelope): Promise<void> {
    if (event.type === identityEvents.moderationActioned.type) {
      await this.applyAction(identityEvents.moderationActioned.data.parse(event.data), event.occurredAt);
      return;
    }
    const isSuspended = event.type === identityEvents.memberSuspended.type;
    const { userId } = (isSuspended ? identityEvents.memberSuspended : identityEvents.memberUnsuspended).data.parse(event.data);
    await this.store.transaction(async ({ images, moderation }) => {
      if (!(await moderation.markApplied(userId, 'suspension', event.occurredAt))) return;
      await moderation.setMemberSuspended(userId, isSuspended);
      const changed = await images.setOwnerSuspended(userId, isSuspended);
      logger.info({ userId, isSuspended, images: changed }, 'member suspension applied to images');
    });
  }

  private async applyAction(action: ModerationActioned, occurredAt: string): Promise<void> {
    if (action.targetKind !== 'image') return;
    const imageId = action.targetId;
    switch (action.action) {
      case 'hide':
        return this.changeState(imageId, 'hidden', occurredAt);
      case 'restore':
        return this.changeState(imageId, 'visible', occurredAt, (moderation) => moderation.unblock(imageId));
      case 'remove': {
        // Hashed before the transaction: an image stored before hashes were kept is read back from storage.
        const hashes = await this.images.pictureHashes(imageId);
        return this.changeState(imageId, 'removed', occurredAt, async (moderation) => {
          if (hashes) await moderation.block(imageId, hashes, action.auditId);
        });
      }
      case 'change_rating': {
        const rating = action.rating;
        if (!rating) return;
        await this.store.transaction(async ({ images, moderation }) => {
          if (await moderation.markApplied(imageId, 'rating', occurredAt)) await images.lockRating(imageId, rating);
        });
        return;
      }
      default:
        // Dismissing a case leaves the image as it is; suspensions come as their own events.
        return;
    }
  }

  private async changeState(
    imageId: string,
    state: ModerationState,
    occurredAt: string,
    alongside?: (moderation: ModerationRepository) => Promise<void>,
  ): Promise<void> {
    await this.store.transaction(async ({ images, moderation }) => {
      if (!(await moderation.markApplied(imageId, 'state', occurredAt))) return;
      if (!(await images.setModerationState(imageId, state))) return;
      await alongside?.(moderation);
    });
  }

  /** The images as moderators see them, whatever their state, in the order asked; unknown ids are left out. */
  async describe(imageIds: readonly string[]): Promise<ModerationTarget[]> {
    const rows = await this.store.run(({ images }) => images.findMany(imageIds));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return [...new Set(imageIds)].flatMap((id) => {
      const row = byId.get(id);
      return row ? [toModerationTarget(row)] : [];
    });
  }

  /** A file of any image, whatever its state: moderators judge hidden and removed images too. */
  async locateFile(imageId: string, variant: ImageVariant) {
    const row = await this.store.run(({ images }) => images.find(imageId, null));
    if (!row) throw new AppError('NOT_FOUND', 'Image not found');
    return locateVariant(row, variant);
  }
}

const toModerationTarget = (row: ImageRow): ModerationTarget => ({
  kind: 'image',
  id: row.id,
  ownerId: row.user_id,
  title: null,
  text: row.prompt.slice(0, MODERATION_LIMITS.snapshotText),
  imageUrl: `/api/moderation/images/${row.id}/file`,
  isPublic: row.is_public,
  rating: row.rating,
  state: row.moderation_state,
  context: null,
  createdAt: new Date(row.created_at).toISOString(),
});

/**
 * Moderators' decisions reach media through its own durable consumer, redelivered until applied, in both run modes.
 * Each records when it was decided, so a repeat or an older decision delivered late changes nothing.
 */
export function startModerationConsumer(bus: Bus, moderation: ModerationService): Promise<Subscription> {
  return bus.consumeEvents(
    { subjects: MODERATION_EVENTS.map((event) => event.type), durableName: 'media-moderation', deliver: 'all' },
    (event) => moderation.apply(event),
  );
}
