import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '@app/schema';
import { ContentPolicy, type Refusal, collectTexts } from './content-policy';
import { createModelStage } from './model-stage';

/** A guard model on an OpenAI-compatible chat endpoint (as Llama Guard on Ollama answers): S4 for "GUARD-MINORS", down on "GUARD-DOWN". */
async function startGuard(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const text = (JSON.parse(body) as { messages: { content: string }[] }).messages[0]!.content;
      seen.push(text);
      if (text.includes('GUARD-DOWN')) return void res.writeHead(503).end('{"error":{"message":"overloaded"}}');
      const answer = text.includes('GUARD-MINORS') ? 'unsafe\nS4' : 'safe';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('ContentPolicy', () => {
  let guard: Awaited<ReturnType<typeof startGuard>>;
  beforeAll(async () => {
    guard = await startGuard();
  });
  afterAll(() => guard.close());

  const policyWith = (failMode: 'open' | 'closed', refusals: Refusal[], retainText = false) =>
    new ContentPolicy({
      model: createModelStage({ kind: 'guard-chat', baseUrl: guard.url, model: 'llama-guard3', timeoutMs: 2_000, failMode }),
      retainText,
      onRefusal: (refusal) => void refusals.push(refusal),
    });

  it('refuses with CONTENT_REJECTED naming the line, and records path, member and matched terms but not the text', async () => {
    const refusals: Refusal[] = [];
    const policy = new ContentPolicy({ onRefusal: (refusal) => void refusals.push(refusal) });
    const refused = await policy
      .assertAllowed(['A quiet title', 'nude schoolgirl'], { path: 'character', userId: 'u1' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'CONTENT_REJECTED', details: { policyCategory: 'minors' } });
    expect(refusals).toEqual([
      {
        path: 'character',
        reason: 'minors',
        stage: 'lexical',
        userId: 'u1',
        evidence: expect.arrayContaining([expect.stringContaining('schoolgirl')]),
        text: null,
      },
    ]);
    await expect(
      policy.assertAllowed(['Two consenting adults', null, undefined, ''], { path: 'character', userId: 'u1' }),
    ).resolves.toBeUndefined();
  });

  it('asks the model only about text the lexical stage allowed, and follows its verdict', async () => {
    const refusals: Refusal[] = [];
    const policy = policyWith('closed', refusals, true);
    const asked = guard.seen.length;
    expect(await policy.check(['a loli picture'], { path: 'image.prompt', userId: 'u2' })).toMatchObject({
      allowed: false,
      stage: 'lexical',
    });
    expect(guard.seen.length).toBe(asked);
    expect(await policy.check(['A story. GUARD-MINORS'], { path: 'chat.message', userId: 'u2' })).toMatchObject({
      allowed: false,
      reason: 'minors',
      stage: 'model',
    });
    expect(await policy.check(['A walk by the sea'], { path: 'chat.message', userId: 'u2' })).toMatchObject({ allowed: true });
    expect(refusals.map((refusal) => [refusal.stage, refusal.text])).toEqual([
      ['lexical', 'a loli picture'],
      ['model', 'A story. GUARD-MINORS'],
    ]);
  });

  it('refuses as unavailable when a fail-closed model cannot answer, and allows when it fails open', async () => {
    const closed = await policyWith('closed', []).check(['GUARD-DOWN'], { path: 'chat.message', userId: null });
    expect(closed).toMatchObject({ allowed: false, reason: 'unavailable', stage: 'model' });
    const open = await policyWith('open', []).check(['GUARD-DOWN'], { path: 'chat.message', userId: null });
    expect(open.allowed).toBe(true);
  });

  it('skips the lexical stage when it already ran elsewhere, and still asks the model', async () => {
    const policy = policyWith('closed', []);
    expect(await policy.check(['nude schoolgirl'], { path: 'card.import', userId: null, lexical: false })).toMatchObject({ allowed: true });
    expect(await policy.check(['GUARD-MINORS'], { path: 'card.import', userId: null, lexical: false })).toMatchObject({ allowed: false });
  });

  it('keeps refusing when recording the refusal fails', async () => {
    const policy = new ContentPolicy({ onRefusal: () => Promise.reject(new Error('bus down')) });
    await expect(policy.assertAllowed(['rape fantasy'], { path: 'chat.message', userId: null })).rejects.toMatchObject({
      code: 'CONTENT_REJECTED',
    });
  });
});

describe('collectTexts', () => {
  it('reads every string of a card, keys included, lorebook entries and extensions too', () => {
    const card = {
      name: 'Nova',
      character_book: { entries: [{ keys: ['lib'], content: 'lore text' }] },
      extensions: { 'free key': { note: 'hidden' } },
    };
    expect(collectTexts(card)).toEqual([
      'name',
      'Nova',
      'character_book',
      'entries',
      'keys',
      'lib',
      'content',
      'lore text',
      'extensions',
      'free key',
      'note',
      'hidden',
    ]);
  });

  it('refuses a value too large to check whole rather than checking part of it', () => {
    expect(() => collectTexts({ entries: Array.from({ length: 50 }, (_, i) => `entry ${i}`) }, 10)).toThrow(/too many fields/);
  });
});
