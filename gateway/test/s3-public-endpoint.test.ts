import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { Infra } from '@app/kit';
import sharp from 'sharp';
import { startLocalS3 } from '../../services/media/test/local-s3';
import { TestClient, registration } from './http-client';

jest.setTimeout(60_000);

const ATTESTED = { ofSelf: true, adult: true };

function connectSrc(response: Response): string[] {
  const directives = (response.headers.get('content-security-policy') ?? '').split(';').map((part) => part.trim().split(/\s+/));
  return directives.find(([name]) => name === 'connect-src')?.slice(1) ?? [];
}

/**
 * S3_ENDPOINT is where the gateway and media reach the bucket (an internal name in docker compose); S3_PUBLIC_ENDPOINT
 * is where browsers do. Here both name the same s3rver: the services by 127.0.0.1, browsers by localhost.
 */
describe('browser uploads with S3_PUBLIC_ENDPOINT', () => {
  let platform: EmbeddedPlatform;
  let stopS3: () => Promise<void>;
  let publicOrigin: string;

  beforeAll(async () => {
    const s3 = await startLocalS3();
    stopS3 = s3.stop;
    publicOrigin = `http://localhost:${new URL(s3.config.endpoint!).port}`;
    const env = {
      S3_BUCKET: s3.config.bucket,
      S3_ENDPOINT: s3.config.endpoint!,
      S3_PUBLIC_ENDPOINT: publicOrigin,
      S3_ACCESS_KEY_ID: s3.config.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
    };
    const infra = Infra.from({ dataDir: `memory://${Math.random().toString(36).slice(2)}`, databaseUrl: null, natsUrl: null }, env);
    platform = await startEmbedded({ infra, gateway: { port: 0 }, env: { ...env, SIGNUPS_PER_IP_PER_HOUR: '1000' } });
  });
  afterAll(async () => {
    await platform?.stop();
    await stopS3?.();
  });

  async function signUp(): Promise<TestClient> {
    const client = new TestClient(platform.url);
    expect((await client.fetch('/api/auth/register', { method: 'POST', json: registration() })).status).toBe(201);
    return client;
  }

  it("lets the page connect to the bucket's public origin in the CSP, and to nothing else new", async () => {
    for (const path of ['/', '/self-ai', '/api/user']) {
      expect(connectSrc(await fetch(`${platform.url}${path}`))).toEqual(["'self'", publicOrigin]);
    }
  });

  it('hands out PUT, POST and part URLs at the public origin, and registers what the browser sent there', async () => {
    const client = await signUp();
    const target = (await (await client.fetch('/api/objects/upload', { method: 'POST' })).json()) as { uploadURL: string };
    expect(new URL(target.uploadURL).origin).toBe(publicOrigin);
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    expect((await fetch(target.uploadURL, { method: 'PUT', body: new Uint8Array(photo) })).status).toBe(200);
    // Media reads the staged object through S3_ENDPOINT.
    const registered = await client.fetch('/api/upload-self-ai', {
      method: 'PUT',
      json: { imageURL: target.uploadURL.split('?')[0], attestation: ATTESTED },
    });
    expect(registered.status).toBe(201);
    const { url } = (await registered.json()) as { url: string };
    expect((await client.fetch(url)).status).toBe(200);

    const params = (await (await client.fetch('/api/s3/params?filename=me.png&type=image%2Fpng')).json()) as { url: string };
    expect(new URL(params.url).origin).toBe(publicOrigin);

    const created = await client.fetch('/api/s3/multipart', { method: 'POST', json: { filename: 'me.png', type: 'image/png' } });
    const { uploadId, key } = (await created.json()) as { uploadId: string; key: string };
    const signed = await client.fetch(`/api/s3/multipart/${encodeURIComponent(uploadId)}/1?key=${encodeURIComponent(key)}`);
    expect(new URL(((await signed.json()) as { url: string }).url).origin).toBe(publicOrigin);
  });
});
