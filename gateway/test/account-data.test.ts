import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type Database, openObjectStorage } from '@app/kit';
import { RENDITION_WIDTHS } from '@app/schema';
import yauzl from 'yauzl';
import { type TestTarget, eventually, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';

jest.setTimeout(300_000);

const RENDITION_KEYS = (imageId: string) => [
  `images/${imageId}/original.png`,
  ...RENDITION_WIDTHS.map((width) => `images/${imageId}/w${width}.webp`),
];

/** Every entry of a ZIP, by name, read with a library other than the one that wrote it. */
function unzip(archive: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const parse = <T>(entries: Map<string, Buffer>, name: string): T => {
  const body = entries.get(name);
  if (!body) throw new Error(`${name} is missing from the archive (has ${[...entries.keys()].join(', ')})`);
  return JSON.parse(body.toString('utf8')) as T;
};

/**
 * Every row in the identity, chat and media schemas that still names the member: any uuid column equal to the id, any
 * text or jsonb column containing it. Outboxes are left out (relayed events age out with OUTBOX_RETENTION_HOURS, decision 037).
 */
async function rowsNaming(dbs: Record<string, Database>, userId: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const [schema, db] of Object.entries(dbs)) {
    const columns = await db.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT c."table_name", c."column_name", c."data_type" FROM information_schema.columns c
       JOIN information_schema.tables t ON t."table_schema" = c."table_schema" AND t."table_name" = c."table_name" AND t."table_type" = 'BASE TABLE'
       WHERE c."table_schema" = $1 AND c."data_type" IN ('uuid', 'text', 'jsonb', 'ARRAY') AND c."table_name" <> 'outbox'`,
      [schema],
    );
    for (const { table_name, column_name, data_type } of columns) {
      const test = data_type === 'uuid' ? `"${column_name}" = $1::uuid` : `strpos("${column_name}"::text, $1) > 0`;
      const [{ count }] = (await db.query<{ count: string }>(`SELECT count(*) AS "count" FROM "${schema}"."${table_name}" WHERE ${test}`, [
        userId,
      ])) as [{ count: string }];
      if (Number(count) > 0) found[`${schema}.${table_name}.${column_name}`] = Number(count);
    }
  }
  return found;
}

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))(
  'account export and deletion on %s',
  (_name, target) => {
    let platform: EmbeddedPlatform;
    let cleanup: () => Promise<void>;
    let dbs: Record<string, Database>;

    beforeAll(async () => {
      const created = await target.create();
      cleanup = created.cleanup;
      platform = await startEmbedded({
        infra: created.infra,
        gateway: { port: 0 },
        // Client and server share this process's event loop: a busy loop fires the server's idle-connection timer in the same
        // turn as a request on that connection (ECONNRESET); a long idle limit keeps the client the one that closes first.
        env: { SIGNUPS_PER_IP_PER_HOUR: '1000', SIGNUP_TOKEN_GRANT: '20', HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000' },
      });
      dbs = Object.fromEntries(platform.services.map((service) => [service.name, service.db]));
    });
    afterAll(async () => {
      await platform?.stop();
      await cleanup?.();
    });

    async function signedUp() {
      const client = new TestClient(platform.url);
      const details = registration();
      const response = await client.fetch('/api/auth/register', { method: 'POST', json: details });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      return { client, id, password: details.password };
    }
    async function gql<T>(client: TestClient, query: string, variables?: Record<string, unknown>): Promise<T> {
      const reply = await client.graphql<T>(query, variables);
      expect(reply.errors).toBeUndefined();
      return reply.data!;
    }
    async function generate(client: TestClient, prompt: string, isPublic: boolean): Promise<string> {
      const response = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt } });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      if (isPublic) {
        expect(
          await statusOf(client.fetch(`/api/images/${id}/visibility`, { method: 'PUT', json: { isPublic: true, rating: 'safe' } })),
        ).toBe(200);
      }
      return id;
    }
    /** The status of a response whose body is read, so its connection goes back to the pool clean. */
    const statusOf = async (response: Promise<Response>) => {
      const answered = await response;
      await answered.arrayBuffer();
      return answered.status;
    };
    const count = async (db: Database, sql: string, params: unknown[]) => Number((await db.query<{ n: string }>(sql, params))[0]!.n);

    it('exports everything the member owns, then deletes it all but the anonymised ledger, leaving others untouched', async () => {
      const member = await signedUp();
      const other = await signedUp();

      // The member's data: a character, two conversations with replies, two images (one public, liked by the other member),
      // a like on the other member's public image, an access token, and ledger entries from all of it.
      const { createCharacter } = await gql<{ createCharacter: { id: string } }>(
        member.client,
        'mutation($input: CharacterInput!) { createCharacter(input: $input) { id } }',
        { input: { name: 'Captain Vera', description: 'A retired sea captain who tells stories.', isPublic: false } },
      );
      const conversationIds: string[] = [];
      for (const [title, characterId] of [
        ['Sailing', createCharacter.id],
        ['Plain chat', null],
      ] as const) {
        const { createConversation } = await gql<{ createConversation: { id: string } }>(
          member.client,
          'mutation($title: String, $characterId: ID) { createConversation(title: $title, characterId: $characterId) { id } }',
          { title, characterId },
        );
        conversationIds.push(createConversation.id);
        await gql(
          member.client,
          'mutation($id: ID) { sendMessage(conversationId: $id, content: "Tell me about the sea") { userMessage { id } } }',
          {
            id: createConversation.id,
          },
        );
      }
      await eventually(async () => {
        expect(
          await count(dbs.chat!, `SELECT count(*) AS "n" FROM "chat"."messages" WHERE "owner_id" = $1 AND "status" = 'streaming'`, [
            member.id,
          ]),
        ).toBe(0);
        expect(
          await count(dbs.chat!, `SELECT count(*) AS "n" FROM "chat"."messages" WHERE "owner_id" = $1 AND "role" = 'assistant'`, [
            member.id,
          ]),
        ).toBe(2);
      }, 30_000);
      const publicImage = await generate(member.client, 'a lighthouse at dusk', true);
      const privateImage = await generate(member.client, 'a quiet harbour at night', false);
      const othersImage = await generate(other.client, 'a field of sunflowers', true);
      expect(await statusOf(other.client.fetch(`/api/images/${publicImage}/like`, { method: 'POST' }))).toBe(200);
      expect(await statusOf(member.client.fetch(`/api/images/${othersImage}/like`, { method: 'POST' }))).toBe(200);
      const { createAccessToken } = await gql<{ createAccessToken: { secret: string } }>(
        member.client,
        'mutation { createAccessToken(input: { name: "bot", scopes: [READ] }) { secret } }',
      );
      const bearer = { authorization: `Bearer ${createAccessToken.secret}` };
      await eventually(async () => {
        const stats = await gql<{ dashboardStats: { totalLikes: number } }>(other.client, '{ dashboardStats { totalLikes } }');
        expect(stats.dashboardStats.totalLikes).toBe(1);
      });

      // GraphQL names the download; a token may not take the whole account.
      expect((await gql<{ accountExportUrl: string }>(member.client, '{ accountExportUrl }')).accountExportUrl).toBe('/api/account/export');
      expect(await statusOf(fetch(`${platform.url}/api/account/export`, { headers: bearer }))).toBe(403);
      expect(await statusOf(new TestClient(platform.url).fetch('/api/account/export'))).toBe(401);

      const download = await member.client.fetch('/api/account/export');
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/zip');
      expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="account-export-\d{4}-\d{2}-\d{2}\.zip"$/);
      expect(download.headers.get('cache-control')).toBe('no-store');
      const entries = await unzip(Buffer.from(await download.arrayBuffer()));

      const account = parse<{ account: Record<string, unknown>; accessTokens: Record<string, unknown>[]; stats: unknown }>(
        entries,
        'account.json',
      );
      expect(account.account).toMatchObject({ id: member.id });
      expect(JSON.stringify(account)).not.toMatch(/password_hash|token_hash/);
      expect(account.accessTokens).toHaveLength(1);
      const ledgerRows = await count(dbs.identity!, `SELECT count(*) AS "n" FROM "identity"."token_ledger" WHERE "user_id" = $1`, [
        member.id,
      ]);
      expect(ledgerRows).toBeGreaterThanOrEqual(5); // the sign-up grant, two replies, two images
      expect(parse<unknown[]>(entries, 'ledger.json')).toHaveLength(ledgerRows);
      const chat = parse<{ conversations: { id: string }[]; messages: { conversation_id: string; role: string }[] }>(
        entries,
        'conversations.json',
      );
      expect(chat.conversations.map((conversation) => conversation.id).sort()).toEqual([...conversationIds].sort());
      expect(chat.messages).toHaveLength(
        await count(dbs.chat!, `SELECT count(*) AS "n" FROM "chat"."messages" WHERE "owner_id" = $1`, [member.id]),
      );
      expect(chat.messages.filter((message) => message.role === 'user')).toHaveLength(2);
      expect(parse<{ id: string; name: string }[]>(entries, 'characters.json')).toEqual([
        expect.objectContaining({ id: createCharacter.id, name: 'Captain Vera' }),
      ]);
      expect(entries.get(`characters/${createCharacter.id}.png`)!.subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      const images = parse<{ images: { id: string; likes: number }[]; likesGiven: { imageId: string }[]; generations: unknown[] }>(
        entries,
        'images.json',
      );
      expect(images.images.map((image) => image.id).sort()).toEqual([publicImage, privateImage].sort());
      expect(images.images.find((image) => image.id === publicImage)!.likes).toBe(1);
      expect(images.likesGiven).toEqual([expect.objectContaining({ imageId: othersImage })]);
      expect(images.generations).toHaveLength(2);
      const storage = openObjectStorage(platform.infra);
      for (const imageId of [publicImage, privateImage]) {
        const stored = await storage.get(`images/${imageId}/original.png`);
        expect(entries.get(`images/${imageId}.png`)).toEqual(stored!.body);
      }
      expect(entries.has(`images/${othersImage}.png`)).toBe(false);

      // Deleting takes the password again.
      const wrong = await member.client.fetch('/api/account/delete', { method: 'POST', json: { password: 'not the password at all' } });
      expect(wrong.status).toBe(403);
      expect(await wrong.json()).toMatchObject({ message: 'The password is not correct.' });
      expect(await statusOf(member.client.fetch('/api/user'))).toBe(200);
      const cookie = member.client.cookie;
      const deleted = await member.client.fetch('/api/account/delete', { method: 'POST', json: { password: member.password } });
      expect(deleted.status).toBe(200);
      expect(await deleted.json()).toEqual({ ok: true });
      expect(deleted.headers.get('set-cookie')).toMatch(/^sid=;/);

      // The old cookie and the access token no longer work; signing in with the old credentials fails.
      const replay = new TestClient(platform.url);
      replay.cookie = cookie;
      expect(await statusOf(replay.fetch('/api/user'))).toBe(401);
      expect(await statusOf(fetch(`${platform.url}/api/user`, { headers: bearer }))).toBe(401);

      // Nothing names the member any more, in any table of any service, once chat and media have taken the event.
      await eventually(async () => expect(await rowsNaming(dbs, member.id)).toEqual({}), 20_000);
      // The ledger is kept, under an id that is no member's.
      const anonymous = await dbs.identity!.query<{ user_id: string }>(
        `SELECT DISTINCT l."user_id" FROM "identity"."token_ledger" l LEFT JOIN "identity"."users" u ON u."id" = l."user_id" WHERE u."id" IS NULL`,
      );
      expect(anonymous).toHaveLength(1);
      expect(
        await count(dbs.identity!, `SELECT count(*) AS "n" FROM "identity"."token_ledger" WHERE "user_id" = $1`, [anonymous[0]!.user_id]),
      ).toBe(ledgerRows);
      // No stored file of the member's is left.
      for (const imageId of [publicImage, privateImage]) {
        for (const key of RENDITION_KEYS(imageId)) expect(await storage.exists(key)).toBe(false);
      }
      for (const folder of ['uploads', 'photos']) expect(await storage.list(`${folder}/${member.id}/`)).toEqual([]);

      // The other member keeps their image and files; the deleted member's like is gone from it, and from their total.
      const theirs = await other.client.fetch(`/api/images/${othersImage}`);
      expect(theirs.status).toBe(200);
      expect(await theirs.json()).toMatchObject({ id: othersImage, likes: 0 });
      expect(await storage.exists(`images/${othersImage}/original.png`)).toBe(true);
      await eventually(async () => {
        const stats = await gql<{ dashboardStats: { totalLikes: number; imagesGenerated: number } }>(
          other.client,
          '{ dashboardStats { totalLikes imagesGenerated } }',
        );
        expect(stats.dashboardStats).toEqual({ totalLikes: 0, imagesGenerated: 1 });
      });
      expect(await statusOf(other.client.fetch('/api/user'))).toBe(200);

      // A repeat is refused (no account), and signing in again is as for an unknown e-mail.
      expect(await statusOf(replay.fetch('/api/account/delete', { method: 'POST', json: { password: member.password } }))).toBe(401);
    });

    it('deletes through GraphQL too, and signs the member out', async () => {
      const member = await signedUp();
      const wrong = await member.client.graphql('mutation { deleteAccount(password: "wrong password!") }');
      expect(wrong.errors![0]).toMatchObject({ message: 'The password is not correct.', extensions: { code: 'FORBIDDEN' } });
      const done = await member.client.graphql<{ deleteAccount: boolean }>('mutation($p: String!) { deleteAccount(password: $p) }', {
        p: member.password,
      });
      expect(done).toEqual({ data: { deleteAccount: true } });
      expect(member.client.cookie).toBeNull();
      expect(await count(dbs.identity!, `SELECT count(*) AS "n" FROM "identity"."users" WHERE "id" = $1`, [member.id])).toBe(0);
    });
  },
);
