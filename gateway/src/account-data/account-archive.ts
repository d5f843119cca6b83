import { Readable } from 'node:stream';
import { logger } from '@app/kit';
import {
  type ChatExportPart,
  ExportFile,
  ExportTableRow,
  type IdentityExportPart,
  type MediaExportPart,
  type RequestMeta,
} from '@app/schema';
import { ZipFile } from 'yazl';
import type { AccountDataClient, ExportPart } from './account-data.client';

type Row = Record<string, unknown>;

/** How a field of a JSON file is written from its part's pages: every row, the only row (or null), or rows grouped by table. */
type Field = [name: string, part: ExportPart, shape: 'rows' | 'row' | 'tables'];

const line = (indent: string, value: unknown) => `\n${indent}${JSON.stringify(value)}`;

/** `[` rows `]`, one row a line, written as the pages arrive. */
async function* rowsJson(part: ExportPart, indent: string): AsyncGenerator<string> {
  let count = 0;
  yield '[';
  for await (const page of part) for (const row of page) yield `${count++ > 0 ? ',' : ''}${line(`${indent}  `, row)}`;
  yield count > 0 ? `\n${indent}]` : ']';
}

/** The part's only row (the account, the counters), or null. */
async function* rowJson(part: ExportPart): AsyncGenerator<string> {
  let only: Row | null = null;
  for await (const page of part) only ??= page[0] ?? null;
  yield JSON.stringify(only);
}

/** `{ "<table>": [rows], … }` from `{ table, row }` rows that come table by table. */
async function* tablesJson(part: ExportPart, indent: string): AsyncGenerator<string> {
  let table: string | null = null;
  yield '{';
  for await (const page of part) {
    for (const { table: next, row } of page.map((raw) => ExportTableRow.parse(raw))) {
      if (next !== table) yield `${table === null ? '' : `\n${indent}  ],`}\n${indent}  ${JSON.stringify(next)}: [`;
      else yield ',';
      yield line(`${indent}    `, row);
      table = next;
    }
  }
  yield table === null ? '}' : `\n${indent}  ]\n${indent}}`;
}

async function* objectJson(fields: Field[]): AsyncGenerator<string> {
  yield '{';
  for (const [index, [name, part, shape]] of fields.entries()) {
    yield `${index > 0 ? ',' : ''}\n  ${JSON.stringify(name)}: `;
    if (shape === 'row') yield* rowJson(part);
    else if (shape === 'tables') yield* tablesJson(part, '  ');
    else yield* rowsJson(part, '  ');
  }
  yield '\n}\n';
}

async function* utf8(json: AsyncGenerator<string>): AsyncGenerator<Buffer> {
  for await (const text of json) yield Buffer.from(text);
}

/** A file of the archive: its path, and how to open its bytes once the archive reaches it (null: it is gone). */
interface LazyEntry {
  path: string;
  open: () => Promise<Readable | Buffer | null>;
}

/**
 * Everything the member owns as one ZIP (TRUST-AND-SAFETY 26, decision 037), produced while it is read: the first page of
 * every JSON part is fetched before this returns (so a service that cannot answer is an ordinary error), the rest page by
 * page as the archive reaches it; cards and stored files are listed a page at a time and each opened only when its turn
 * comes, so neither a part nor its file list is ever held whole.
 */
export async function accountArchive(client: AccountDataClient, userId: string, meta: RequestMeta): Promise<Readable> {
  const identity = (part: IdentityExportPart) => client.identityPart(userId, part, meta);
  const chat = (part: ChatExportPart | 'messages') => client.chatPart(userId, part, meta);
  const media = (part: MediaExportPart) => client.mediaPart(userId, part, meta);
  const [
    [account, quotaUses, stats, accessTokens, notices, reportsFiled, identityOther, ledger],
    [conversations, messages, characters, stories, storyPassages, persona],
    [images, likesGiven, generations, mediaOther],
  ] = await Promise.all([
    Promise.all([
      identity('account'),
      identity('quotaUses'),
      identity('stats'),
      identity('accessTokens'),
      identity('notices'),
      identity('reportsFiled'),
      identity('other'),
      identity('ledger'),
    ]),
    Promise.all([chat('conversations'), chat('messages'), chat('characters'), chat('stories'), chat('storyPassages'), chat('persona')]),
    Promise.all([media('images'), media('likesGiven'), media('generations'), media('other')]),
  ]);

  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const fail = (error: Error) => {
    if (!output.destroyed) output.destroy(error);
  };
  // A part or file that fails half way (a service or the storage gone) ends the download as failed, not as a short archive.
  zip.on('error', fail);
  const add = (path: string, source: Readable, compress = true) => {
    source.on('error', fail);
    zip.addReadStream(source, path, { compress });
    return source;
  };
  const json = (path: string, text: AsyncGenerator<string>) => add(path, Readable.from(utf8(text)));

  json(
    'account.json',
    objectJson([
      ['account', account, 'row'],
      ['quotaUses', quotaUses, 'rows'],
      ['stats', stats, 'row'],
      ['accessTokens', accessTokens, 'rows'],
      ['notices', notices, 'rows'],
      ['reportsFiled', reportsFiled, 'rows'],
      ['other', identityOther, 'tables'],
    ]),
  );
  json('ledger.json', rowsJson(ledger, ''));
  json(
    'conversations.json',
    objectJson([
      ['conversations', conversations, 'rows'],
      ['messages', messages, 'rows'],
      ['persona', persona, 'row'],
    ]),
  );
  json(
    'stories.json',
    objectJson([
      ['stories', stories, 'rows'],
      ['passages', storyPassages, 'rows'],
    ]),
  );
  json('characters.json', rowsJson(characters, ''));
  json(
    'images.json',
    objectJson([
      ['images', images, 'rows'],
      ['likesGiven', likesGiven, 'rows'],
      ['generations', generations, 'rows'],
    ]),
  );
  json('photos.json', tablesJson(mediaOther, ''));

  const outputGone = new Promise<void>((resolve) => output.once('close', resolve));
  /** Adds a page of lazy entries, then waits until the archive has read the last of them before the next page is fetched. */
  const addPage = async (entries: LazyEntry[]) => {
    const added = entries.map((entry) => add(entry.path, lazily(entry.open, entry.path), false));
    const last = added[added.length - 1];
    if (last) await Promise.race([new Promise((resolve) => last.once('close', resolve)), outputGone]);
  };
  void (async () => {
    // Character cards: a second pass over the characters, since characters.json streams the first.
    for await (const page of await chat('characters')) {
      if (output.destroyed) return;
      await addPage(
        page.map((character) => {
          const id = String(character.id);
          return { path: `characters/${id}.png`, open: () => client.characterCard(userId, id, meta) };
        }),
      );
    }
    for (const part of ['imageFiles', 'photoFiles', 'avatarFiles'] as const) {
      for await (const page of await media(part)) {
        if (output.destroyed) return;
        await addPage(
          page.map((raw) => {
            const file = ExportFile.parse(raw);
            return { path: file.path, open: () => client.openFile(file.key) };
          }),
        );
      }
    }
    zip.end();
  })().catch(fail);
  return output;
}

/** A stream made only when the archive reaches its entry, so one file at a time is open. */
function lazily(open: () => Promise<Readable | Buffer | null>, what: string): Readable {
  return Readable.from(
    (async function* () {
      const source = await open();
      if (source === null) {
        logger.warn({ what }, 'a file of the export is missing; its entry is left empty');
        return;
      }
      if (Buffer.isBuffer(source)) yield source;
      else for await (const chunk of source) yield chunk as Buffer;
    })(),
  );
}
