import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { identityService } from '@app/identity';
import { Database, Infra } from '@app/kit';
import { type EmbeddedPlatform, startEmbedded } from '../src/index';
import { createTestDatabase, eventually, hasNats, hasPostgres } from '../../kit/test/test-infra';
import { TestClient } from '../../../gateway/test/http-client';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..', '..', '..');
const ADMIN = path.join(ROOT, 'services', 'embedded', 'dist', 'admin.js');
const PASSWORD = 'a very good password';

/** `npm run admin -- grant-role …` as an operator runs it: a process of its own, on the platform's settings. */
function admin(env: Record<string, string>, ...args: string[]) {
  const result = spawnSync(process.execPath, [ADMIN, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout.trim(), err: result.stderr.trim() };
}

async function register(platform: EmbeddedPlatform) {
  const client = new TestClient(platform.url);
  const email = `cli-${randomUUID().slice(0, 8)}@example.com`;
  const response = await client.fetch('/api/auth/register', {
    method: 'POST',
    json: { email, password: PASSWORD, confirmPassword: PASSWORD, dateOfBirth: '1990-01-01', acceptTerms: true },
  });
  expect(response.status).toBe(201);
  return email;
}

async function memberAfterSignIn(platform: EmbeddedPlatform, email: string) {
  const client = new TestClient(platform.url);
  await client.fetch('/api/auth/login', { method: 'POST', json: { email, password: PASSWORD } });
  const { data } = await client.graphql<{ me: { role: string; ageAssurance: { level: string; method: string } } }>(
    '{ me { role ageAssurance { level method } } }',
  );
  return data?.me;
}

const roleAfterSignIn = async (platform: EmbeddedPlatform, email: string) => (await memberAfterSignIn(platform, email))?.role;

describe('admin command line', () => {
  beforeAll(() => {
    if (!fs.existsSync(ADMIN)) throw new Error(`${ADMIN} is missing: build with npm run build:server first`);
  });

  it('explains itself when called wrongly', () => {
    const result = admin({}, 'grant-role', 'not-an-email', 'moderator');
    expect(result.code).toBe(2);
    expect(result.err).toBe('Not an e-mail address: not-an-email');
    expect(admin({}, 'make-coffee').err).toMatch(/^Usage: npm run admin -- grant-role <email>/);
    expect(admin({}, 'grant-role', 'a@example.com', 'king').err).toBe('Not a role: king (member, moderator or admin)');
    // Self-declaration is how members joined; it can never be recorded as a verification.
    expect(admin({}, 'verify-age', 'a@example.com', 'self_declaration', 'ref-1').err).toMatch(
      /^Not a highly effective method: self_declaration \(photo_id_matching, facial_age_estimation,/,
    );
    expect(admin({}, 'verify-age', 'a@example.com', 'photo_id_matching')).toMatchObject({ code: 2 });
    expect(admin({}, 'verify-age', 'a@example.com', 'photo_id_matching', ' ').err).toMatch(/^Name the reference of the check/);
    expect(admin({}, 'rebuild-stats', '--everything')).toMatchObject({ code: 2, err: expect.stringMatching(/^Usage: /) });
  });

  it('embedded: grants a role on the data directory once the product is stopped, and refuses while it runs', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-cli-'));
    const env = { DATA_DIR: dataDir };
    try {
      let platform = await startEmbedded({ env: { ...env, PORT: '0', HOST: '127.0.0.1' } });
      const email = await register(platform);
      const whileRunning = admin(env, 'grant-role', email, 'moderator');
      expect(whileRunning.code).not.toBe(0);
      expect(whileRunning.err).toMatch(/DATA_DIR|in use|locked/i);
      await platform.stop();

      const granted = admin(env, 'grant-role', email, 'moderator', 'first', 'moderator');
      expect(granted).toMatchObject({ code: 0, out: `${email} is now moderator.` });
      const verified = admin(env, 'verify-age', email, 'facial_age_estimation', 'support ticket 4411');
      expect(verified).toMatchObject({ code: 0, out: `${email} is now age-verified (facial_age_estimation).` });
      expect(admin(env, 'grant-role', 'nobody@example.com', 'admin')).toMatchObject({ code: 1, err: 'No member has this e-mail address.' });

      platform = await startEmbedded({ env: { ...env, PORT: '0', HOST: '127.0.0.1' } });
      try {
        expect(await memberAfterSignIn(platform, email)).toEqual({
          role: 'MODERATOR',
          ageAssurance: { level: 'VERIFIED', method: 'facial_age_estimation' },
        });
      } finally {
        await platform.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const distributed = hasPostgres() && hasNats() ? it : it.skip;
  distributed('distributed: grants a role in PostgreSQL while the product runs', async () => {
    const database = await createTestDatabase();
    const infra = Infra.from({ dataDir: `memory://${randomUUID()}`, databaseUrl: database.url, natsUrl: process.env.NATS_URL! });
    const platform = await startEmbedded({ infra, env: { PORT: '0', HOST: '127.0.0.1' } });
    try {
      const email = await register(platform);
      const granted = admin({ DATABASE_URL: database.url, NATS_URL: process.env.NATS_URL! }, 'grant-role', email, 'admin');
      expect(granted).toMatchObject({ code: 0, out: `${email} is now admin.` });
      expect(await roleAfterSignIn(platform, email)).toBe('ADMIN');
      expect((await memberAfterSignIn(platform, email))?.ageAssurance).toEqual({ level: 'DECLARED', method: 'self_declaration' });
      const verified = admin({ DATABASE_URL: database.url, NATS_URL: process.env.NATS_URL! }, 'verify-age', email, 'open_banking', 'ob-77');
      expect(verified).toMatchObject({ code: 0, out: `${email} is now age-verified (open_banking).` });
      // Sessions are cached by the gateway for a moment; a new sign-in reads the member afresh.
      expect((await memberAfterSignIn(platform, email))?.ageAssurance).toEqual({ level: 'VERIFIED', method: 'open_banking' });
    } finally {
      await platform.stop();
      await database.drop();
    }
  });

  describe('rebuild-stats', () => {
    interface Member {
      client: TestClient;
      id: string;
    }
    type Stats = Record<string, number>;

    async function signedUp(platform: EmbeddedPlatform): Promise<Member> {
      const email = await register(platform);
      const client = new TestClient(platform.url);
      await client.fetch('/api/auth/login', { method: 'POST', json: { email, password: PASSWORD } });
      const { id } = (await (await client.fetch('/api/user')).json()) as { id: string };
      return { client, id };
    }

    const post = (member: Member, url: string, json: unknown = {}) => member.client.fetch(url, { method: 'POST', json });
    const statsOf = async (member: Member) => (await (await member.client.fetch('/api/dashboard/stats')).json()) as Stats;
    const earnedOf = async (member: Member) =>
      ((await (await member.client.fetch('/api/achievements')).json()) as { key: string; earned: boolean }[])
        .filter((achievement) => achievement.earned)
        .map((achievement) => achievement.key);

    /**
     * Activity of every kind the counters follow, through the product: images (one made public, then another made
     * public and private again), chat messages, a character, likes and an unlike, and a deleted liked image.
     */
    async function generateActivity(platform: EmbeddedPlatform) {
      const [ann, ben, cy] = [await signedUp(platform), await signedUp(platform), await signedUp(platform)];
      const image = async (member: Member, prompt: string) => {
        const response = await post(member, '/api/generate/image', { prompt });
        expect(response.status).toBe(201);
        return ((await response.json()) as { id: string }).id;
      };
      const visibility = (member: Member, id: string, isPublic: boolean) =>
        member.client.fetch(`/api/images/${id}/visibility`, { method: 'PUT', json: { isPublic, rating: 'safe' } });
      const chat = async (member: Member, content: string) => {
        const { id } = (await (await post(member, '/api/conversations', { title: 'Rebuild' })).json()) as { id: string };
        expect((await post(member, `/api/chat/${id}`, { content })).status).toBe(200);
      };
      const [kept, flipped, gone] = [await image(ann, 'a harbour'), await image(ann, 'a lighthouse'), await image(ann, 'a storm')];
      await visibility(ann, kept, true);
      await visibility(ann, flipped, true);
      await visibility(ann, flipped, false);
      await visibility(ann, gone, true);
      await chat(ann, 'Hello');
      await chat(ben, 'Hi there');
      await chat(ben, 'Again');
      expect((await post(ben, '/api/characters', { name: 'Mira', personalityTraits: ['Calm'] })).status).toBe(201);
      await post(ben, `/api/images/${kept}/like`);
      await post(cy, `/api/images/${kept}/like`);
      await post(ben, `/api/images/${gone}/like`);
      await cy.client.fetch(`/api/images/${kept}/like`, { method: 'DELETE' });
      expect((await ann.client.fetch(`/api/images/${gone}`, { method: 'DELETE' })).status).toBe(204);
      await image(cy, 'a meadow');
      const expected: Record<string, Stats> = {
        [ann.id]: { imagesGenerated: 3, chatMessages: 1, charactersCreated: 0, totalLikes: 1, publicImages: 1 },
        [ben.id]: { imagesGenerated: 0, chatMessages: 2, charactersCreated: 1, totalLikes: 0, publicImages: 0 },
        [cy.id]: { imagesGenerated: 1, chatMessages: 0, charactersCreated: 0, totalLikes: 0, publicImages: 0 },
      };
      const members = [ann, ben, cy];
      // The live projection has caught up once every figure is there.
      for (const member of members) await eventually(async () => expect(await statsOf(member)).toMatchObject(expected[member.id]!), 15_000);
      const live = new Map<string, { stats: Stats; earned: string[] }>();
      for (const member of members) live.set(member.id, { stats: await statsOf(member), earned: await earnedOf(member) });
      expect(live.get(ann.id)!.earned).toEqual(['first_creation', 'conversation_starter']);
      return { ann, ben, cy, members, live };
    }

    /** A counter the projection got wrong, and an achievement lost, as a bad deploy or a hand edit would leave them. */
    async function corrupt(db: Database, ann: Member, ben: Member) {
      await db.execute(`UPDATE "identity"."user_stats" SET "images_generated" = 99, "total_likes" = 7 WHERE "user_id" = $1`, [ann.id]);
      await db.execute(`DELETE FROM "identity"."user_stats" WHERE "user_id" = $1`, [ben.id]);
      await db.execute(`DELETE FROM "identity"."achievements" WHERE "user_id" = $1 AND "key" = 'character_creator'`, [ben.id]);
    }

    function expectRepaired(out: string, ann: Member, ben: Member) {
      expect(out).toMatch(/^Replayed \d+ of \d+ events on the stream into the counters of \d+ members\.$/m);
      expect(out).toContain(`${ann.id} imagesGenerated: 99 -> 3`);
      expect(out).toContain(`${ann.id} totalLikes: 7 -> 1`);
      expect(out).toContain(`${ben.id} chatMessages: 0 -> 2`);
      expect(out).toContain(`${ben.id} charactersCreated: 0 -> 1`);
      // Ben's lost achievements come back, and are the only ones announced: Ann's were never lost.
      expect(out).toContain('1 achievement newly reached was recorded and announced.');
      expect(out).not.toContain('Warning');
    }

    async function expectLiveFigures(members: Member[], live: Map<string, { stats: Stats; earned: string[] }>) {
      for (const member of members) {
        expect({ stats: await statsOf(member), earned: await earnedOf(member) }).toEqual(live.get(member.id));
      }
    }

    it('embedded: replays the event log into the live figures, repairing a corrupted counter, once the product is stopped', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-rebuild-'));
      const env = { DATA_DIR: dataDir };
      const start = () => startEmbedded({ env: { ...env, PORT: '0', HOST: '127.0.0.1' } });
      try {
        let platform = await start();
        const { ann, ben, members, live } = await generateActivity(platform);
        await platform.stop();

        // Untouched figures rebuild to themselves.
        const same = admin(env, 'rebuild-stats');
        expect(same).toMatchObject({ code: 0, err: '' });
        expect(same.out).toContain('No counter changed: the live figures match the stream.');

        const db = await Database.open(Infra.from({ dataDir, databaseUrl: null, natsUrl: null }), identityService);
        await corrupt(db, ann, ben);
        await db.close();
        const rebuilt = admin(env, 'rebuild-stats');
        expect(rebuilt.code).toBe(0);
        expectRepaired(rebuilt.out, ann, ben);

        // The product counts on from the rebuilt figures: nothing replayed is counted twice.
        platform = await start();
        try {
          // The same sessions, on the restarted product's new port.
          for (const member of members) {
            const { cookie } = member.client;
            member.client = new TestClient(platform.url);
            member.client.cookie = cookie;
          }
          await expectLiveFigures(members, live);
          expect((await post(members[2]!, '/api/generate/image', { prompt: 'after the rebuild' })).status).toBe(201);
          await eventually(async () => expect(await statsOf(members[2]!)).toMatchObject({ imagesGenerated: 2 }), 15_000);
        } finally {
          await platform.stop();
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });

    distributed('distributed: replays the JetStream stream while the product runs, without disturbing its consumer', async () => {
      const database = await createTestDatabase();
      const infra = Infra.from({ dataDir: `memory://${randomUUID()}`, databaseUrl: database.url, natsUrl: process.env.NATS_URL! });
      const platform = await startEmbedded({ infra, env: { PORT: '0', HOST: '127.0.0.1' } });
      const db = await Database.open(infra, identityService);
      try {
        const { ann, ben, cy, members, live } = await generateActivity(platform);
        await corrupt(db, ann, ben);
        const rebuilt = admin({ DATABASE_URL: database.url, NATS_URL: process.env.NATS_URL! }, 'rebuild-stats');
        expect(rebuilt.code).toBe(0);
        expectRepaired(rebuilt.out, ann, ben);
        await expectLiveFigures(members, live);
        // The live projection still counts what happens next, once.
        expect((await post(cy, '/api/generate/image', { prompt: 'after the rebuild' })).status).toBe(201);
        await eventually(async () => expect(await statsOf(cy)).toMatchObject({ imagesGenerated: 2 }), 15_000);
      } finally {
        await db.close();
        await platform.stop();
        await database.drop();
      }
    });
  });
});
