import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { openObjectStorage } from '@app/kit';
import { chatEvents, chatRpc, identityRpc, mediaEvents } from '@app/schema';
import { createGateway, readGatewayConfig } from '../src';
import { type TestTarget, eventually, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, collect, registration } from './http-client';

jest.setTimeout(300_000);

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** One sample of a Prometheus text exposition: the series' value for exactly these labels (in any order), or null. */
function sample(body: string, name: string, labels: Record<string, string> = {}): number | null {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort();
  for (const line of body.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = (match[2] ?? '')
      .split(/,(?=[a-zA-Z_]\w*=")/)
      .filter(Boolean)
      .sort();
    if (JSON.stringify(given) === JSON.stringify(wanted)) return Number(match[3]);
  }
  return null;
}

/** What Prometheus reads from a running platform: latency, bus traffic, generations, circuits, queues and live connections. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('metrics on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let member: TestClient;
  const tokenBefore = process.env.METRICS_TOKEN;

  const scrape = (token: string | null = METRICS_TOKEN) =>
    fetch(`${platform.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const metrics = async () => {
    const response = await scrape();
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    // The gateway reads METRICS_TOKEN from the process's environment, as it does in production.
    process.env.METRICS_TOKEN = METRICS_TOKEN;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', SIGNUP_TOKEN_GRANT: '20', METRICS_TOKEN },
    });
    member = new TestClient(platform.url);
    expect((await member.fetch('/api/auth/register', { method: 'POST', json: registration() })).status).toBe(201);
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
    if (tokenBefore === undefined) delete process.env.METRICS_TOKEN;
    else process.env.METRICS_TOKEN = tokenBefore;
  });

  it('counts a chat reply and an image from the HTTP edge through the bus to the providers, and the open WebSocket', async () => {
    // Series are the process's: what an earlier platform in this process counted is the baseline.
    const before = await metrics();
    let body = '';
    const grown = (name: string, labels: Record<string, string>) => (sample(body, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    const socket = member.subscriptions();
    const balance = collect(socket, 'subscription { tokenBalanceChanged { balance } }', 1);
    const conversation = await member.graphql<{ createConversation: { id: string } }>(
      'mutation StartMetricsChat { createConversation(title: "Metrics") { id } }',
    );
    expect(conversation.errors).toBeUndefined();
    const sent = await member.graphql(
      'mutation SendMetricsHello($id: ID!) { sendMessage(conversationId: $id, content: "Hello there") { assistantMessage { id } } }',
      { id: conversation.data!.createConversation.id },
    );
    expect(sent.errors).toBeUndefined();
    const image = await member.graphql(
      'mutation DrawMetricsLighthouse { generateImage(input: { prompt: "a lighthouse at dusk" }) { id } }',
    );
    expect(image.errors).toBeUndefined();

    await eventually(async () => {
      body = await metrics();
      expect(grown('generation_duration_seconds_count', { kind: 'chat_reply', outcome: 'completed' })).toBe(1);
      expect(grown('generation_duration_seconds_count', { kind: 'image', outcome: 'completed' })).toBe(1);
      expect(sample(body, 'websocket_connections')).toBe(1);
      // The dashboard's projection has read the image's event.
      expect(grown('bus_events_consumed_total', { consumer: 'identity-stats', type: mediaEvents.imageGenerated.type, outcome: 'ok' })).toBe(
        1,
      );
    }, 30_000);

    expect(grown('http_request_duration_seconds_count', { method: 'POST', route: '/graphql', status_code: '200' })).toBe(3);
    expect(body).not.toMatch(/route="\/api\/[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
    const operation = (operation_name: string) => ({ operation_name, operation_type: 'mutation', outcome: 'ok' });
    expect(grown('graphql_operation_duration_seconds_count', operation('SendMetricsHello'))).toBe(1);
    expect(grown('graphql_operation_duration_seconds_count', operation('DrawMetricsLighthouse'))).toBe(1);
    expect(grown('bus_request_duration_seconds_count', { subject: chatRpc.sendMessage.subject, outcome: 'ok' })).toBe(1);
    expect(grown('bus_events_published_total', { type: chatEvents.replyCompleted.type })).toBe(1);
    expect(grown('bus_events_published_total', { type: mediaEvents.imageGenerated.type })).toBe(1);
    expect(sample(body, 'bus_consumer_pending', { consumer: 'identity-stats' })).toBeGreaterThanOrEqual(0);
    expect(sample(body, 'provider_circuit_state', { provider: 'chat-provider' })).toBe(0);
    expect(sample(body, 'provider_circuit_state', { provider: 'image-provider' })).toBe(0);
    expect(sample(body, 'queue_depth', { queue: 'media.image-jobs.waiting' })).toBe(0);
    expect(sample(body, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);

    balance.stop();
    await socket.dispose();
  });

  it('times the sign-up by its route pattern and its call to identity', async () => {
    const before = await metrics();
    expect((await new TestClient(platform.url).fetch('/api/auth/register', { method: 'POST', json: registration() })).status).toBe(201);
    const after = await metrics();
    const grown = (name: string, labels: Record<string, string>) =>
      (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(grown('http_request_duration_seconds_count', { method: 'POST', route: '/api/auth/register', status_code: '201' })).toBe(1);
    expect(grown('bus_request_duration_seconds_count', { subject: identityRpc.register.subject, outcome: 'ok' })).toBe(1);
  });

  it('serves /metrics only to the bearer of METRICS_TOKEN', async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape('not-the-metrics-token-0123456789')).status).toBe(401);
    const response = await scrape();
    expect([response.status, response.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^text\/plain; version=0\.0\.4/)]);
  });

  it('answers /metrics with 404 when METRICS_TOKEN is not configured', async () => {
    const unexposed = await createGateway({
      bus: platform.bus,
      storage: openObjectStorage(platform.infra),
      config: { ...readGatewayConfig({}), port: 0 },
      metricsToken: null,
    });
    const { url } = await unexposed.listen();
    try {
      expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
    } finally {
      await unexposed.close();
    }
  });
});
