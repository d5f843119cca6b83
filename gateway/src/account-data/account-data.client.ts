import type { Readable } from 'node:stream';
import type { Bus, ObjectStorage } from '@app/kit';
import {
  AppError,
  CONTENT_RATINGS,
  type ChatExportPart,
  type DeleteAccountInput,
  EXPORT_PAGE_ROWS,
  type ExportPage,
  type IdentityExportPart,
  type MediaExportPart,
  type RequestMeta,
  accountDataRpc,
  chatRpc,
} from '@app/schema';

type Row = Record<string, unknown>;

/** One part of a member's export, page after page; its first page is already fetched. */
export type ExportPart = AsyncIterable<Row[]>;

/** The bus calls behind a member's export and deletion, and the stored files the export reads (media names the keys). */
export class AccountDataClient {
  constructor(
    private readonly bus: Bus,
    private readonly storage: ObjectStorage,
    /** Rows asked for per page (tests ask for fewer, to see an export cross page boundaries). */
    private readonly pageRows = EXPORT_PAGE_ROWS,
  ) {}

  identityPart = (userId: string, part: IdentityExportPart, meta: RequestMeta) =>
    this.part((after, limit) => this.bus.request(accountDataRpc.exportIdentity, { userId, part, after, limit }, meta));

  chatPart = (userId: string, part: ChatExportPart | 'messages', meta: RequestMeta) =>
    this.part((after, limit) =>
      part === 'messages'
        ? this.bus.request(accountDataRpc.exportChatMessages, { userId, after, limit }, meta)
        : this.bus.request(accountDataRpc.exportChat, { userId, part, after, limit }, meta),
    );

  mediaPart = (userId: string, part: MediaExportPart, meta: RequestMeta) =>
    this.part((after, limit) => this.bus.request(accountDataRpc.exportMedia, { userId, part, after, limit }, meta));

  /**
   * Fetches the first page now (so a service that cannot answer fails the export before any byte is sent), and the
   * others as they are read, so no bus message and no buffer ever holds a whole part.
   */
  private async part(fetchPage: (after: string[] | null, limit: number) => Promise<ExportPage>): Promise<ExportPart> {
    const first = await fetchPage(null, this.pageRows);
    const pageRows = this.pageRows;
    return (async function* () {
      yield first.rows;
      for (let after = first.next; after !== null; ) {
        const page = await fetchPage(after, pageRows);
        yield page.rows;
        after = page.next;
      }
    })();
  }

  /** A character's Character Card V2 PNG (with its avatar), or null when a moderator removed the character. */
  async characterCard(userId: string, characterId: string, meta: RequestMeta): Promise<Buffer | null> {
    try {
      const file = await this.bus.request(
        chatRpc.exportCharacterCard,
        { userId, characterId, format: 'png', ratings: [...CONTENT_RATINGS] },
        meta,
        30_000,
      );
      return Buffer.from(file.bodyBase64, 'base64');
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  /** A stored file as a stream, or null when it is gone. */
  async openFile(key: string): Promise<Readable | null> {
    return (await this.storage.openStream(key))?.stream ?? null;
  }

  deleteAccount = (userId: string, input: DeleteAccountInput, meta: RequestMeta) =>
    this.bus.request(accountDataRpc.deleteAccount, { userId, input }, meta);
}
