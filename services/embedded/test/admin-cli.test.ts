import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Infra } from '@app/kit';
import { type EmbeddedPlatform, startEmbedded } from '../src/index';
import { createTestDatabase, hasNats, hasPostgres } from '../../kit/test/test-infra';
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
});
