import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { createGateway, readGatewayConfig } from '@app/gateway';
import { MemoryStorage } from '@app/kit';
import { embeddedTarget } from '../../services/kit/test/test-infra';

jest.setTimeout(120_000);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const TRUSTED = 'query TrustedViewer { me { id } }';
const OTHER = 'query Anyone { me { email } }';

interface Reply {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** The hash alone (what a persisted-query client sends first), or the document with its hash (its retry). */
async function send(baseUrl: string, document: string, withQuery: boolean): Promise<Reply> {
  const body = { ...(withQuery ? { query: document } : {}), extensions: { persistedQuery: { version: 1, sha256Hash: sha256(document) } } };
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Reply;
}

/** Persisted queries: the web app's trusted documents go by their hash; other clients may register theirs (APQ) when it is on. */
describe('persisted queries', () => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let webDist: string;

  beforeAll(async () => {
    const created = await embeddedTarget.create();
    cleanup = created.cleanup;
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.writeFileSync(path.join(webDist, 'trusted-documents.json'), JSON.stringify({ [sha256(TRUSTED)]: TRUSTED }));
    platform = await startEmbedded({ infra: created.infra, gateway: { port: 0, webDist } });
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('runs a trusted document from its hash alone', async () => {
    const reply = await send(platform.url, TRUSTED, false);
    expect(reply.errors).toBeUndefined();
    expect(reply.data).toEqual({ me: null });
  });

  it('asks for an unknown document once, then knows it by its hash (APQ)', async () => {
    const first = await send(platform.url, OTHER, false);
    expect(first.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await send(platform.url, OTHER, true)).errors).toBeUndefined();
    expect((await send(platform.url, OTHER, false)).data).toEqual({ me: null });
  });

  it('refuses a document whose hash does not match it', async () => {
    const response = await fetch(`${platform.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: OTHER, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(TRUSTED) } } }),
    });
    expect(response.status).toBe(400);
  });

  it('with GRAPHQL_APQ=false, still runs trusted documents and full queries, but remembers no other hash', async () => {
    const strict = await createGateway({
      bus: platform.bus,
      config: { ...readGatewayConfig({ GRAPHQL_APQ: 'false' }), port: 0, webDist },
      storage: new MemoryStorage(),
    });
    const { url } = await strict.listen();
    try {
      expect((await send(url, TRUSTED, false)).errors).toBeUndefined();
      const registered = 'query Registered { me { firstName } }';
      expect((await send(url, registered, true)).errors).toBeUndefined();
      expect((await send(url, registered, false)).errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    } finally {
      await strict.close();
    }
  });
});
