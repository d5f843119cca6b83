import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type Bus, type Database, type ObjectStorage, openObjectStorage } from '@app/kit';
import { AVATAR_SIZES, CHAT_LIMITS, EXPORT_PAGE_BYTES, type ExportPage, RENDITION_WIDTHS, type RpcDef, accountDataRpc } from '@app/schema';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { accountArchive } from '../src/account-data/account-archive';
import { AccountDataClient } from '../src/account-data/account-data.client';
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

const png = (width: number, height: number, red = 200) =>
  sharp({ create: { width, height, channels: 3, background: { r: red, g: 80, b: 40 } } })
    .png()
    .toBuffer();

/** The bus, counting the requests made on each subject. */
function countingRequests(bus: Bus): { bus: Bus; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const counted = new Proxy(bus, {
    get(target, property) {
      if (property === 'request') {
        return (rpc: RpcDef, ...rest: unknown[]) => {
          calls[rpc.subject] = (calls[rpc.subject] ?? 0) + 1;
          return Reflect.apply(target.request, target, [rpc, ...rest]) as unknown;
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { bus: counted, calls };
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
    let storage: ObjectStorage;

    beforeAll(async () => {
      const created = await target.create();
      cleanup = created.cleanup;
      platform = await startEmbedded({
        infra: created.infra,
        gateway: { port: 0 },
        // Client and server share this process's event loop: a busy loop fires the server's idle-connection timer in the same
        // turn as a request on that connection (ECONNRESET); a long idle limit keeps the client the one that closes first.
        env: { SIGNUPS_PER_IP_PER_HOUR: '1000', SIGNUP_TOKEN_GRANT: '40', HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000' },
      });
      dbs = Object.fromEntries(platform.services.map((service) => [service.name, service.db]));
      storage = openObjectStorage(platform.infra);
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
    /** A file sent the way the web app sends it: an upload target, then the bytes PUT to it. */
    async function uploaded(client: TestClient, body: Buffer): Promise<string> {
      const target = await client.fetch('/api/objects/upload', { method: 'POST' });
      expect(target.status).toBe(200);
      const { uploadURL } = (await target.json()) as { uploadURL: string };
      const put = await fetch(uploadURL.startsWith('/') ? `${platform.url}${uploadURL}` : uploadURL, {
        method: 'PUT',
        body: new Uint8Array(body),
      });
      expect(put.status).toBe(200);
      return uploadURL;
    }
    async function selfAiPhoto(client: TestClient, red: number): Promise<string> {
      const registered = await client.fetch('/api/upload-self-ai', {
        method: 'PUT',
        json: { imageURL: await uploaded(client, await png(320, 240, red)), attestation: { ofSelf: true, adult: true } },
      });
      expect(registered.status).toBe(201);
      return ((await registered.json()) as { id: string }).id;
    }
    /** Sets the member's profile picture; answers its public URL. */
    async function profilePicture(client: TestClient): Promise<string> {
      const set = await client.fetch('/api/profile/picture', {
        method: 'PUT',
        json: { imageURL: await uploaded(client, await png(200, 200)) },
      });
      expect(set.status).toBe(200);
      return ((await set.json()) as { profileImageUrl: string }).profileImageUrl;
    }
    async function createCharacter(client: TestClient, name: string): Promise<string> {
      const { createCharacter } = await gql<{ createCharacter: { id: string } }>(
        client,
        'mutation($input: CharacterInput!) { createCharacter(input: $input) { id } }',
        { input: { name, description: 'A retired sea captain who tells stories.', isPublic: false } },
      );
      return createCharacter.id;
    }
    /** A conversation with one message of the member's, and the reply once it has finished. */
    async function conversationWithReply(client: TestClient, title: string, characterId: string | null): Promise<string> {
      const { createConversation } = await gql<{ createConversation: { id: string } }>(
        client,
        'mutation($title: String, $characterId: ID) { createConversation(title: $title, characterId: $characterId) { id } }',
        { title, characterId },
      );
      await gql(client, 'mutation($id: ID) { sendMessage(conversationId: $id, content: "Tell me about the sea") { userMessage { id } } }', {
        id: createConversation.id,
      });
      await eventually(async () => {
        expect(
          await count(
            dbs.chat!,
            `SELECT count(*) AS "n" FROM "chat"."messages" WHERE "conversation_id" = $1 AND "role" = 'assistant' AND "status" <> 'streaming'`,
            [createConversation.id],
          ),
        ).toBe(1);
      }, 30_000);
      return createConversation.id;
    }
    async function exported(client: TestClient): Promise<Map<string, Buffer>> {
      const download = await client.fetch('/api/account/export');
      expect(download.status).toBe(200);
      return unzip(Buffer.from(await download.arrayBuffer()));
    }
    const storedBody = async (key: string) => (await storage.get(key))?.body;

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
      const characterId = await createCharacter(member.client, 'Captain Vera');
      const conversationIds = [
        await conversationWithReply(member.client, 'Sailing', characterId),
        await conversationWithReply(member.client, 'Plain chat', null),
      ];
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
      // A story with its written opening, and the member's chat persona.
      const { startStory } = await gql<{ startStory: { story: { id: string } } }>(
        member.client,
        'mutation { startStory(input: { premise: "A lighthouse keeper finds a letter in a bottle." }) { story { id } } }',
      );
      const storyId = startStory.story.id;
      await eventually(async () => {
        const { storyPath } = await gql<{ storyPath: { status: string }[] }>(
          member.client,
          `{ storyPath(storyId: "${storyId}") { status } }`,
        );
        expect(storyPath.map((passage) => passage.status)).toEqual(['COMPLETE']);
      }, 30_000);
      await gql(member.client, 'mutation { updatePersona(input: { name: "Vera", description: "A sea captain." }) { name } }');
      // A Self-AI photo and a profile picture, through the same uploads the web app uses.
      const photoId = await selfAiPhoto(member.client, 120);
      const avatarUrl = await profilePicture(member.client);
      const avatarId = avatarUrl.split('/')[4]!;
      expect(await statusOf(new TestClient(platform.url).fetch(avatarUrl))).toBe(200);
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
      const chat = parse<{
        conversations: { id: string }[];
        messages: { conversation_id: string; role: string }[];
        persona: { name: string; description: string };
      }>(entries, 'conversations.json');
      expect(chat.persona).toMatchObject({ name: 'Vera', description: 'A sea captain.' });
      const stories = parse<{ stories: { id: string; premise: string }[]; passages: { story_id: string; content: string }[] }>(
        entries,
        'stories.json',
      );
      expect(stories.stories).toEqual([
        expect.objectContaining({ id: storyId, premise: 'A lighthouse keeper finds a letter in a bottle.' }),
      ]);
      expect(stories.passages).toEqual([expect.objectContaining({ story_id: storyId })]);
      expect(chat.conversations.map((conversation) => conversation.id).sort()).toEqual([...conversationIds].sort());
      expect(chat.messages).toHaveLength(
        await count(dbs.chat!, `SELECT count(*) AS "n" FROM "chat"."messages" WHERE "owner_id" = $1`, [member.id]),
      );
      expect(chat.messages.filter((message) => message.role === 'user')).toHaveLength(2);
      expect(parse<{ id: string; name: string }[]>(entries, 'characters.json')).toEqual([
        expect.objectContaining({ id: characterId, name: 'Captain Vera' }),
      ]);
      expect(entries.get(`characters/${characterId}.png`)!.subarray(0, 8)).toEqual(
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
      for (const imageId of [publicImage, privateImage]) {
        expect(entries.get(`images/${imageId}.png`)).toEqual(await storedBody(`images/${imageId}/original.png`));
      }
      expect(entries.has(`images/${othersImage}.png`)).toBe(false);
      // The photo (its row, with the attestation, and its files) and the profile picture's renditions.
      const photos = parse<{ self_ai_photos: Record<string, unknown>[]; avatars: Record<string, unknown>[] }>(entries, 'photos.json');
      expect(photos.self_ai_photos).toEqual([expect.objectContaining({ id: photoId, attested_of_self: true, attested_adult: true })]);
      expect(photos.avatars).toEqual([expect.objectContaining({ avatar_id: avatarId })]);
      expect(entries.get(`photos/${photoId}/original.png`)).toEqual(await storedBody(`photos/${member.id}/${photoId}/original.png`));
      expect(entries.get(`photos/${photoId}/thumb.webp`)).toEqual(await storedBody(`photos/${member.id}/${photoId}/thumb.webp`));
      for (const size of AVATAR_SIZES) {
        expect(entries.get(`avatars/w${size}.webp`)).toEqual(await storedBody(`avatars/${avatarId}/w${size}.webp`));
      }

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
      expect(await storage.list(`avatars/${avatarId}/`)).toEqual([]);
      expect(await statusOf(new TestClient(platform.url).fetch(avatarUrl))).toBe(404);

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

    it('exports a member with more rows than a page of every part, page by page, the same as in one go', async () => {
      const member = await signedUp();
      const other = await signedUp();
      // Two or more of every kind of row a member can have more than one of (the free plan allows two characters).
      const characterIds = [await createCharacter(member.client, 'Captain Vera'), await createCharacter(member.client, 'Doctor Lin')];
      for (const [index, characterId] of characterIds.entries()) await conversationWithReply(member.client, `Talk ${index}`, characterId);
      await generate(member.client, 'a lighthouse at dusk', true);
      await generate(member.client, 'a quiet harbour at night', false);
      for (const prompt of ['a field of sunflowers', 'a snowy mountain pass']) {
        const theirs = await generate(other.client, prompt, true);
        expect(await statusOf(member.client.fetch(`/api/images/${theirs}/like`, { method: 'POST' }))).toBe(200);
        expect(
          await statusOf(
            member.client.fetch('/api/reports', { method: 'POST', json: { targetKind: 'image', targetId: theirs, reason: 'spam' } }),
          ),
        ).toBe(201);
      }
      for (const name of ['bot', 'script']) {
        await gql(member.client, 'mutation($name: String!) { createAccessToken(input: { name: $name, scopes: [READ] }) { secret } }', {
          name,
        });
      }
      const photoIds = [await selfAiPhoto(member.client, 30), await selfAiPhoto(member.client, 90)];
      await profilePicture(member.client);
      const rowsOf = (db: Database, table: string, column = 'user_id') =>
        count(db, `SELECT count(*) AS "n" FROM ${table} WHERE "${column}" = $1`, [member.id]);
      await eventually(async () => expect(await rowsOf(dbs.identity!, '"identity"."achievements"')).toBeGreaterThanOrEqual(2));

      const whole = await exported(member.client);
      // The same archive, built by the gateway's code from pages of one row each.
      const { bus, calls } = countingRequests(platform.bus);
      const archive = await accountArchive(new AccountDataClient(bus, storage, 1), member.id, {});
      const paged = await unzip(Buffer.concat((await archive.toArray()) as Buffer[]));

      expect([...paged.keys()].sort()).toEqual([...whole.keys()].sort());
      for (const [name, body] of whole) {
        if (name.endsWith('.json')) expect(JSON.parse(paged.get(name)!.toString('utf8'))).toEqual(JSON.parse(body.toString('utf8')));
        else expect(paged.get(name)).toEqual(body);
      }
      const account = parse<{
        quotaUses: unknown[];
        accessTokens: unknown[];
        reportsFiled: unknown[];
        other: { achievements: unknown[] };
      }>(paged, 'account.json');
      expect(account.quotaUses).toHaveLength(await rowsOf(dbs.identity!, '"identity"."quota_uses"'));
      expect(account.quotaUses.length).toBeGreaterThanOrEqual(2);
      expect(account.accessTokens).toHaveLength(2);
      expect(account.reportsFiled).toHaveLength(2);
      expect(account.other.achievements).toHaveLength(await rowsOf(dbs.identity!, '"identity"."achievements"'));
      expect(parse<unknown[]>(paged, 'ledger.json')).toHaveLength(await rowsOf(dbs.identity!, '"identity"."token_ledger"'));
      const chat = parse<{ conversations: unknown[]; messages: unknown[] }>(paged, 'conversations.json');
      const messages = await rowsOf(dbs.chat!, '"chat"."messages"', 'owner_id');
      expect(messages).toBe(4);
      expect([chat.conversations.length, chat.messages.length]).toEqual([2, messages]);
      expect(parse<unknown[]>(paged, 'characters.json')).toHaveLength(2);
      expect(characterIds.every((id) => paged.has(`characters/${id}.png`))).toBe(true);
      const images = parse<{ images: unknown[]; likesGiven: unknown[]; generations: unknown[] }>(paged, 'images.json');
      expect([images.images.length, images.likesGiven.length, images.generations.length]).toEqual([2, 2, 2]);
      const photos = parse<{ self_ai_photos: { id: string }[]; avatars: unknown[] }>(paged, 'photos.json');
      expect(photos.self_ai_photos.map((photo) => photo.id).sort()).toEqual([...photoIds].sort());
      expect(photos.avatars).toHaveLength(1);
      const names = [...paged.keys()];
      expect(names.filter((name) => name.startsWith('images/'))).toHaveLength(2);
      expect(names.filter((name) => name.startsWith('photos/'))).toHaveLength(4);
      expect(names.filter((name) => name.startsWith('avatars/'))).toHaveLength(AVATAR_SIZES.length);
      // One message a page: as many requests as messages (the last page says it is the last).
      expect(calls['svc.chat.member.messages']).toBe(messages);
    });

    it('also ends a page once its rows pass the byte budget, so a long history never makes one large bus message', async () => {
      const ownerId = randomUUID();
      const conversationId = randomUUID();
      await dbs.chat!.query(`INSERT INTO "chat"."conversations" ("id", "owner_id", "title") VALUES ($1, $2, 'Long')`, [
        conversationId,
        ownerId,
      ]);
      const total = 40;
      for (let index = 0; index < total; index++) {
        await dbs.chat!.query(
          `INSERT INTO "chat"."messages" ("id", "conversation_id", "owner_id", "role", "content", "status") VALUES ($1, $2, $3, 'user', $4, 'complete')`,
          [randomUUID(), conversationId, ownerId, `${index} ${'x'.repeat(CHAT_LIMITS.messageLength - 10)}`],
        );
      }
      const pageSizes: number[] = [];
      const seen: string[] = [];
      for (let after: string[] | null = null, first = true; first || after !== null; first = false) {
        const page: ExportPage = await platform.bus.request(accountDataRpc.exportChatMessages, { userId: ownerId, after, limit: 500 });
        expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThan(EXPORT_PAGE_BYTES + 1024);
        pageSizes.push(page.rows.length);
        seen.push(...page.rows.map((row) => String(row.content).split(' ')[0]!));
        after = page.next;
      }
      expect(pageSizes.length).toBeGreaterThan(1);
      expect(seen).toEqual(Array.from({ length: total }, (_value, index) => String(index)));
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
