import { type SseEvent, SseParser, readSseEvents } from './sse';

const encoder = new TextEncoder();

/** Feeds `wire` to a fresh parser in pieces of `size` bytes and collects every event. */
function parseInPieces(wire: string | Uint8Array, size: number): SseEvent[] {
  const bytes = typeof wire === 'string' ? encoder.encode(wire) : wire;
  const parser = new SseParser();
  const events: SseEvent[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) events.push(...parser.push(bytes.subarray(offset, offset + size)));
  events.push(...parser.end());
  return events;
}

const data = (events: SseEvent[]) => events.map((event) => event.data);

describe('SseParser', () => {
  it('parses data lines with and without the space after the colon', () => {
    expect(data(parseInPieces('data: {"a":1}\n\ndata:{"b":2}\n\n', 1000))).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('removes only one leading space from a value', () => {
    expect(data(parseInPieces('data:   padded\n\n', 1000))).toEqual(['  padded']);
  });

  it('joins multi-line events with \\n', () => {
    expect(data(parseInPieces('data: line one\ndata: line two\ndata:\n\n', 1000))).toEqual(['line one\nline two\n']);
  });

  it.each([
    ['\\n', '\n'],
    ['\\r\\n', '\r\n'],
    ['\\r', '\r'],
  ])('accepts %s line endings, split at every byte', (_name, eol) => {
    const wire = `: keep-alive${eol}${eol}data: one${eol}${eol}event: update${eol}data: two${eol}${eol}data: [DONE]${eol}${eol}`;
    for (const size of [1, 2, 3, 7, 1000]) {
      const events = parseInPieces(wire, size);
      expect(events).toEqual([
        { event: 'message', data: 'one', id: null },
        { event: 'update', data: 'two', id: null },
        { event: 'message', data: '[DONE]', id: null },
      ]);
    }
  });

  it('does not mistake a \\r\\n split between two pieces for two line endings', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.push('\n\r')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: 'a', id: null }]);
  });

  it('skips comment lines (keep-alives) and never dispatches them as events', () => {
    expect(parseInPieces(': OPENROUTER PROCESSING\n\n: keep-alive\n\n', 4)).toEqual([]);
    expect(data(parseInPieces('data: a\n: comment inside an event\ndata: b\n\n', 1000))).toEqual(['a\nb']);
  });

  it('reassembles multi-byte UTF-8 characters split across pieces', () => {
    const text = 'héllo — 世界 🎉 Ωmega ✓';
    const wire = encoder.encode(`data: ${JSON.stringify({ content: text })}\n\n`);
    for (let size = 1; size <= 5; size++) {
      const events = parseInPieces(wire, size);
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0].data).content).toBe(text);
    }
  });

  it('keeps the id, ignores retry and unknown fields, and accepts a field without a colon', () => {
    const events = parseInPieces('id: 7\nretry: 1000\nfoo: bar\ndata\n\ndata: x\n\n', 1000);
    expect(events).toEqual([
      { event: 'message', data: '', id: '7' },
      { event: 'message', data: 'x', id: '7' },
    ]);
  });

  it("turns llama.cpp's non-standard `error:` line into an error event", () => {
    expect(parseInPieces('error: {"error":{"code":500,"message":"boom"}}\n\n', 3)).toEqual([
      { event: 'error', data: '{"error":{"code":500,"message":"boom"}}', id: null },
    ]);
  });

  it('does not dispatch an event without data lines', () => {
    expect(parseInPieces('event: ping\n\n', 1000)).toEqual([]);
  });

  it('dispatches a final event that was not followed by a blank line at end()', () => {
    expect(data(parseInPieces('data: one\n\ndata: [DONE]', 1000))).toEqual(['one', '[DONE]']);
    expect(data(parseInPieces('data: [DONE]\n', 1000))).toEqual(['[DONE]']);
  });

  it('strips a byte-order mark at the start of the stream', () => {
    expect(data(parseInPieces('\uFEFFdata: x\n\n', 1))).toEqual(['x']);
    const parser = new SseParser();
    expect(parser.push('\uFEFFdata: y\n\n')).toEqual([{ event: 'message', data: 'y', id: null }]);
  });

  it('handles large events arriving in many pieces', () => {
    const big = 'x'.repeat(200_000);
    expect(data(parseInPieces(`data: ${big}\n\n`, 4096))).toEqual([big]);
  });

  it('rejects push() after end()', () => {
    const parser = new SseParser();
    parser.end();
    expect(() => parser.push('data: x\n\n')).toThrow(/after end/);
  });
});

describe('readSseEvents', () => {
  it('yields events from an async byte stream', async () => {
    async function* body() {
      yield encoder.encode('data: a\n');
      yield encoder.encode('\ndata: b\n\n');
      yield encoder.encode('data: [DONE]\n\n');
    }
    const events: string[] = [];
    for await (const event of readSseEvents(body())) events.push(event.data);
    expect(events).toEqual(['a', 'b', '[DONE]']);
  });
});
