import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { TestClient, registration } from './http-client';

jest.setTimeout(60_000);

/** Landing-page interest reaches the event stream as a domain event, with no personal data beyond a member id. */
describe('interest events', () => {
  let platform: EmbeddedPlatform;

  beforeAll(async () => {
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
    });
  });
  afterAll(() => platform?.stop());

  const recorded = async () => {
    const identity = platform.services.find((service) => service.name === 'identity')!;
    const rows = await identity.db.query<{ envelope: { type: string; actorId: string | null; data: Record<string, unknown> } }>(
      `SELECT "envelope" FROM "identity"."outbox" WHERE "envelope"->>'type' = 'evt.identity.interest.recorded' ORDER BY "seq"`,
    );
    return rows.map((row) => row.envelope);
  };

  it('records a visitor’s and a member’s interest, with only the member id', async () => {
    const visitor = new TestClient(platform.url);
    const response = await visitor.fetch('/api/interest', { method: 'POST', json: { kind: 'vip_subscribe', label: 'vip-basic' } });
    expect(response.status).toBe(202);
    const member = new TestClient(platform.url);
    await member.fetch('/api/auth/register', { method: 'POST', json: registration() });
    const me = (await (await member.fetch('/api/user')).json()) as { id: string };
    const viaGraphql = await member.graphql<{ recordInterest: boolean }>(
      'mutation { recordInterest(kind: FEATURE, label: "text-to-video") }',
    );
    expect(viaGraphql.data?.recordInterest).toBe(true);

    const events = await recorded();
    expect(events.slice(-2)).toEqual([
      expect.objectContaining({ actorId: null, data: { kind: 'vip_subscribe', label: 'vip-basic', userId: null } }),
      expect.objectContaining({ actorId: me.id, data: { kind: 'feature', label: 'text-to-video', userId: me.id } }),
    ]);
    expect(JSON.stringify(events)).not.toMatch(/127\.0\.0\.1|::1|@example\.com/);
  });

  it('refuses unknown kinds and free-form labels', async () => {
    const client = new TestClient(platform.url);
    const kind = await client.fetch('/api/interest', { method: 'POST', json: { kind: 'purchase', label: 'x' } });
    expect(kind.status).toBe(400);
    const label = await client.fetch('/api/interest', { method: 'POST', json: { kind: 'feature', label: '<script>alert(1)</script>' } });
    expect(label.status).toBe(400);
    expect(await label.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('limits interest signals per client address', async () => {
    const client = new TestClient(platform.url);
    let last = 0;
    for (let i = 0; i < 70 && last !== 429; i++) {
      last = (await client.fetch('/api/interest', { method: 'POST', json: { kind: 'feature', label: 'self-ai' } })).status;
    }
    expect(last).toBe(429);
  });
});
