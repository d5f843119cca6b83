/**
 * The clients of bench/live.bench.ts: thousands of graphql-transport-ws sockets on raw `ws` (the protocol by
 * hand, so 10,000 fit in one process), each subscribed to its member's balance and conversation, and a
 * recorder of when balance changes and typing arrive. The same fleet loads the platform and the bare baseline.
 */
import WebSocket from 'ws';

export const TOKEN_SUBSCRIPTION_ID = 't';
export const CONVERSATION_SUBSCRIPTION_ID = 'c';
const TOKEN_SUBSCRIPTION = 'subscription { tokenBalanceChanged { balance delta reason occurredAt } }';
const CONVERSATION_SUBSCRIPTION =
  'subscription($id: ID!) { conversationUpdates(conversationId: $id) { type typing text message { role status createdAt } } }';
const CONNECT_TIMEOUT_MS = 30_000;
const CONNECT_ATTEMPTS = 5;

export interface FleetMember {
  index: number;
  cookie: string;
  conversationId: string;
}

type Counters = { token: number; typingOn: number; typingOff: number; delta: number; message: number; errors: number };
const zeroCounters = (): Counters => ({ token: 0, typingOn: 0, typingOff: 0, delta: 0, message: 0, errors: 0 });

/** What the sockets received since the last reset, and how late. */
export class LiveRecorder {
  /** occurredAt of the balance change → receipt, ms (the wall clock: identity and the clients share the machine's). */
  tokenLatencies: number[] = [];
  /** Start of the member's send → receipt of typing on, ms. */
  typingLatencies: number[] = [];
  /** createdAt of the new reply (the transaction storing it) → receipt of its message, ms: the fan-out without the send's other work. */
  replyLatencies: number[] = [];
  counts = zeroCounters();
  /** Errors received before the last reset (subscriptions refused while the sockets connected). */
  earlierErrors = 0;
  /** The first few error payloads, for the report. */
  readonly errorSamples: string[] = [];
  /** Balance changes received per member, to tell a member left out from a few frames lost. */
  readonly tokensByMember = new Map<number, number>();
  lastFrameAt = 0;
  private readonly sendStartedAt = new Map<number, number>();

  reset(): void {
    this.earlierErrors += this.counts.errors;
    this.tokensByMember.clear();
    this.tokenLatencies = [];
    this.typingLatencies = [];
    this.replyLatencies = [];
    this.counts = zeroCounters();
    this.sendStartedAt.clear();
  }

  sendStarted(member: number): void {
    this.sendStartedAt.set(member, performance.now());
  }

  receive(member: number, frame: { id?: string; type: string; payload?: { data?: Record<string, unknown>; errors?: unknown } }): void {
    this.lastFrameAt = performance.now();
    if (frame.type === 'error' || frame.payload?.errors) {
      if (this.errorSamples.length < 3) this.errorSamples.push(JSON.stringify(frame.payload).slice(0, 300));
      return void this.counts.errors++;
    }
    if (frame.type !== 'next') return;
    const data = frame.payload?.data;
    if (frame.id === TOKEN_SUBSCRIPTION_ID) {
      const change = data?.tokenBalanceChanged as { occurredAt: string };
      this.counts.token++;
      this.tokensByMember.set(member, (this.tokensByMember.get(member) ?? 0) + 1);
      this.tokenLatencies.push(Date.now() - Date.parse(change.occurredAt));
      return;
    }
    const update = data?.conversationUpdates as {
      type: string;
      typing: boolean | null;
      message: { role: string; status: string; createdAt: string } | null;
    };
    if (update.type === 'DELTA') this.counts.delta++;
    else if (update.type === 'MESSAGE') {
      this.counts.message++;
      const { message } = update;
      if (message?.role === 'ASSISTANT' && message.status === 'STREAMING')
        this.replyLatencies.push(Date.now() - Date.parse(message.createdAt));
    } else if (update.type === 'TYPING' && update.typing === false) this.counts.typingOff++;
    else if (update.type === 'TYPING') {
      this.counts.typingOn++;
      const started = this.sendStartedAt.get(member);
      if (started !== undefined) this.typingLatencies.push(performance.now() - started);
    }
  }
}

/** Opens and holds the sockets: each signs in with its member's cookie and subscribes to balance and conversation. */
export class SocketFleet {
  private readonly sockets = new Set<WebSocket>();
  retries = 0;
  /** Sockets the server closed after they were subscribed. */
  closedByServer = 0;
  private closing = false;

  constructor(
    private readonly url: string,
    private readonly recorder: LiveRecorder,
  ) {}

  get size(): number {
    return this.sockets.size;
  }

  /** Opens `perMember` sockets for every member, `concurrency` handshakes at a time, retrying refused ones. */
  async open(members: FleetMember[], perMember: number, concurrency: number): Promise<void> {
    const queue = Array.from({ length: perMember }, () => members).flat();
    const worker = async () => {
      for (let member = queue.shift(); member; member = queue.shift()) await this.openWithRetries(member);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  }

  async close(): Promise<void> {
    this.closing = true;
    const closed = [...this.sockets].map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of this.sockets) socket.terminate();
    await Promise.all(closed);
    this.sockets.clear();
  }

  private async openWithRetries(member: FleetMember): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.openOne(member);
      } catch (error) {
        if (attempt >= CONNECT_ATTEMPTS) throw error;
        this.retries++;
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
      }
    }
  }

  /** Resolves once the server acknowledged the connection and both subscriptions are sent. */
  private openOne(member: FleetMember): Promise<void> {
    const wsUrl = `${this.url.replace(/^http/, 'ws')}/graphql`;
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws', { headers: { cookie: member.cookie }, perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      let subscribed = false;
      const fail = (reason: string) => {
        clearTimeout(timer);
        socket.terminate();
        reject(new Error(`socket of member ${member.index}: ${reason}`));
      };
      const timer = setTimeout(() => fail('no connection_ack in time'), CONNECT_TIMEOUT_MS);
      socket.on('unexpected-response', (_request, response) => fail(`upgrade answered ${response.statusCode}`));
      socket.on('error', (error) => !subscribed && fail(error.message));
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
      socket.on('close', (code) => {
        this.sockets.delete(socket);
        if (!subscribed) fail(`closed (${code}) before connection_ack`);
        else if (!this.closing) this.closedByServer++;
      });
      socket.on('message', (raw) => {
        const frame = JSON.parse(String(raw)) as { id?: string; type: string };
        if (frame.type === 'ping') return socket.send('{"type":"pong"}');
        if (frame.type !== 'connection_ack') return this.recorder.receive(member.index, frame);
        subscribed = true;
        clearTimeout(timer);
        socket.send(JSON.stringify({ id: TOKEN_SUBSCRIPTION_ID, type: 'subscribe', payload: { query: TOKEN_SUBSCRIPTION } }));
        socket.send(
          JSON.stringify({
            id: CONVERSATION_SUBSCRIPTION_ID,
            type: 'subscribe',
            payload: { query: CONVERSATION_SUBSCRIPTION, variables: { id: member.conversationId } },
          }),
        );
        this.sockets.add(socket);
        resolve();
      });
    });
  }
}

/**
 * Open-loop sends: member `order[i]` sends at start + i / rate seconds whether or not earlier sends have been
 * answered, so a slow server cannot slow the load down (no coordinated omission). Resolves with the failures.
 */
export async function sendAtRate(order: number[], perSecond: number, send: (member: number) => Promise<void>): Promise<string[]> {
  const failures: string[] = [];
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (const [i, member] of order.entries()) {
    const wait = started + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(member).catch((error: unknown) => void failures.push(error instanceof Error ? error.message : String(error))));
  }
  await Promise.all(inFlight);
  return failures;
}
