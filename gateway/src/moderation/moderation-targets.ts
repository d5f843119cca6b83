import { AppError, MODERATION_LIMITS, type ModerationTarget, type ReportTargetKind, type RequestMeta } from '@app/schema';
import type { ChatClient } from '../chat-client';
import type { MediaClient } from '../media-client';

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Asks the service that owns each kind of content to describe it for moderators (any state). */
export class ModerationTargets {
  constructor(
    private readonly media: MediaClient,
    private readonly chat: ChatClient,
  ) {}

  async describe(items: Array<{ kind: ReportTargetKind; id: string }>, meta: RequestMeta): Promise<ModerationTarget[]> {
    const ids = (kind: ReportTargetKind) => [...new Set(items.filter((item) => item.kind === kind).map((item) => item.id))];
    const imageIds = ids('image');
    const characterIds = ids('character');
    const messageIds = ids('reply');
    const [images, content] = await Promise.all([
      imageIds.length ? this.media.describeImages(imageIds, meta) : [],
      characterIds.length || messageIds.length ? this.chat.describeContent(characterIds, messageIds, meta) : [],
    ]);
    return [...images, ...content];
  }

  async describeOne(kind: ReportTargetKind, id: string, meta: RequestMeta): Promise<ModerationTarget | null> {
    const [target] = await this.describe([{ kind, id }], meta);
    return target ?? null;
  }

  /**
   * What a member may report: a public image or character they can see, or a reply in their own conversation.
   * Anything else is NOT_FOUND, as it would be to read.
   */
  async forReport(kind: ReportTargetKind, id: string, reporterId: string, meta: RequestMeta): Promise<ModerationTarget> {
    const target = await this.describeOne(kind, id, meta);
    const visible = target && target.state !== 'removed' && (kind === 'reply' ? target.ownerId === reporterId : target.isPublic);
    if (!target || !visible) throw new AppError('NOT_FOUND', 'That content no longer exists.');
    return target;
  }

  /** The images and characters a takedown request names by link or id (replies are private, so never). */
  async forTakedown(content: string, meta: RequestMeta): Promise<ModerationTarget[]> {
    const ids = [...new Set((content.match(UUIDS) ?? []).map((id) => id.toLowerCase()))].slice(0, MODERATION_LIMITS.describeMax);
    if (ids.length === 0) return [];
    const found = await this.describe(
      ids.flatMap((id) => [
        { kind: 'image' as const, id },
        { kind: 'character' as const, id },
      ]),
      meta,
    );
    return found.filter((target) => target.kind !== 'reply');
  }
}
