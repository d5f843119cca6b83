import { randomUUID } from 'node:crypto';
import { defineRpc } from '@app/schema';
import { type NatsConnection, connect } from '@nats-io/transport-node';
import { z } from 'zod';
import { NatsBus } from '../src/bus';
import { hasNats } from './test-infra';

jest.setTimeout(20_000);

/** Operators list the running services and their counters with `nats micro ls|info|stats`; this speaks that protocol. */
(hasNats() ? describe : describe.skip)('NATS services discovery (nats micro)', () => {
  let bus: NatsBus;
  let nc: NatsConnection;
  const name = `micro${randomUUID().slice(0, 8)}`;
  const echo = defineRpc(`svc.${name}.text.echo`, z.object({ text: z.string() }), z.object({ text: z.string() }));
  const boom = defineRpc(`svc.${name}.boom`, z.object({}), z.object({}));
  const ask = async <T>(subject: string) => (await nc.request(subject, '', { timeout: 2_000 })).json<T>();

  beforeAll(async () => {
    bus = await NatsBus.connect(process.env.NATS_URL!, 'micro-test');
    nc = await connect({ servers: process.env.NATS_URL! });
  });
  afterAll(async () => {
    await nc?.close();
    await bus?.close();
  });

  it('answers PING, INFO and STATS for a service with its endpoints and counters, and goes quiet when they stop', async () => {
    const served = [
      await bus.serve(echo, async ({ text }) => ({ text })),
      await bus.serve(boom, async () => {
        throw new Error('kaput');
      }),
    ];
    const ping = await ask<{ type: string; name: string; id: string; version: string }>(`$SRV.PING.${name}`);
    expect(ping).toMatchObject({ type: 'io.nats.micro.v1.ping_response', name, version: '0.1.0' });
    expect(ping.id).toMatch(/^[0-9a-f]{32}$/);

    const info = await ask<{ type: string; endpoints: { name: string; subject: string; queue_group: string }[] }>(
      `$SRV.INFO.${name}.${ping.id}`,
    );
    expect(info.type).toBe('io.nats.micro.v1.info_response');
    expect(info.endpoints).toEqual([
      { name: 'text-echo', subject: echo.subject, queue_group: echo.subject, metadata: null },
      { name: 'boom', subject: boom.subject, queue_group: boom.subject, metadata: null },
    ]);

    await bus.request(echo, { text: 'one' });
    await bus.request(echo, { text: 'two' });
    await expect(bus.request(boom, {})).rejects.toMatchObject({ code: 'INTERNAL' });
    const stats = await ask<{ type: string; started: string; endpoints: Record<string, unknown>[] }>(`$SRV.STATS.${name}`);
    expect(stats.type).toBe('io.nats.micro.v1.stats_response');
    expect(Date.parse(stats.started)).not.toBeNaN();
    const [echoStats, boomStats] = stats.endpoints;
    expect(echoStats).toMatchObject({ subject: echo.subject, num_requests: 2, num_errors: 0, last_error: '' });
    expect(echoStats!.processing_time).toBeGreaterThan(0);
    expect(echoStats!.average_processing_time).toBe(Math.round((echoStats!.processing_time as number) / 2));
    expect(boomStats).toMatchObject({ subject: boom.subject, num_requests: 1, num_errors: 1, last_error: 'Internal error' });

    for (const subscription of served) await subscription.unsubscribe();
    await expect(nc.request(`$SRV.PING.${name}`, '', { timeout: 500 })).rejects.toThrow();
  });

  it("carries the service's circuits and queues, read when asked, in INFO's metadata, as `nats micro info` shows them", async () => {
    const served = await bus.serve(echo, async ({ text }) => ({ text }));
    let depth = 3;
    bus.reportStatus(() => ({
      circuits: [{ name: 'chat-provider', state: 'half-open' }],
      queues: [{ name: 'media.image-jobs.waiting', depth }],
    }));
    const info = async () => ask<{ metadata: Record<string, string>; started: string }>(`$SRV.INFO.${name}`);
    expect((await info()).metadata).toEqual({ 'circuit.chat-provider': 'half-open', 'queue.media.image-jobs.waiting': '3' });
    depth = 5;
    const later = await info();
    expect(later.metadata['queue.media.image-jobs.waiting']).toBe('5');
    expect(Date.parse(later.started)).not.toBeNaN();
    await served.unsubscribe();
  });
});
