/**
 * A streaming parser for server-sent events (the WHATWG "text/event-stream" format) as AI providers send
 * them: bytes arrive in arbitrary pieces (even inside a multi-byte UTF-8 character), lines end in `\n`,
 * `\r\n` or `\r`, `data:` may or may not be followed by a space, comment lines (`: keep-alive`) are
 * skipped, and several `data:` lines in one event are joined with `\n`.
 *
 * Two lenient extensions over the standard, both for real servers:
 * - a non-standard `error:` field line (llama.cpp's server sends `error: {json}` mid-stream) becomes an
 *   event of type `error` whose data is that value;
 * - at `end()`, a last event that was not followed by a blank line is still dispatched (some servers
 *   close the stream right after `data: [DONE]\n`).
 */
export interface SseEvent {
  /** The `event:` field, or 'message' when the event had none. */
  event: string;
  /** The `data:` lines joined with '\n'. */
  data: string;
  /** The last `id:` seen in the stream, or null. */
  id: string | null;
}

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  private dataLines: string[] = [];
  private eventType = '';
  private lastId: string | null = null;
  private started = false;
  private ended = false;

  /** Feeds the next piece of the stream; returns the events it completed, in order. */
  push(chunk: Uint8Array | string): SseEvent[] {
    if (this.ended) throw new Error('SseParser.push() after end()');
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && text.length > 0) {
      this.started = true;
      // TextDecoder already drops a byte-order mark; strings fed directly may still carry one.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.buffer += text;
    return this.drain(false);
  }

  /** Signals the end of the stream; returns any event still pending (see the class comment). */
  end(): SseEvent[] {
    if (this.ended) return [];
    this.buffer += this.decoder.decode();
    const events = this.drain(true);
    this.ended = true;
    if (this.buffer.length > 0) {
      this.processLine(this.buffer, events);
      this.buffer = '';
    }
    this.dispatch(events);
    return events;
  }

  private drain(final: boolean): SseEvent[] {
    const events: SseEvent[] = [];
    const buffer = this.buffer;
    let start = 0;
    while (start < buffer.length) {
      let index = start;
      while (index < buffer.length) {
        const code = buffer.charCodeAt(index);
        if (code === 10 || code === 13) break;
        index++;
      }
      if (index >= buffer.length) break; // no complete line yet
      let next = index + 1;
      if (buffer.charCodeAt(index) === 13) {
        // A '\r' at the very end may be the first half of '\r\n': wait for the next piece.
        if (index + 1 >= buffer.length && !final) break;
        if (buffer.charCodeAt(index + 1) === 10) next = index + 2;
      }
      this.processLine(buffer.slice(start, index), events);
      start = next;
    }
    this.buffer = buffer.slice(start);
    return events;
  }

  private processLine(line: string, events: SseEvent[]): void {
    if (line === '') {
      this.dispatch(events);
      return;
    }
    if (line.charCodeAt(0) === 58 /* ':' */) return; // comment, e.g. ': keep-alive' or ': OPENROUTER PROCESSING'
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'data':
        this.dataLines.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'error': // llama.cpp: `error: {"error": {...}}`
        this.eventType = 'error';
        this.dataLines.push(value);
        break;
      default: // 'retry' and unknown fields are ignored
        break;
    }
  }

  private dispatch(events: SseEvent[]): void {
    if (this.dataLines.length > 0) {
      events.push({ event: this.eventType || 'message', data: this.dataLines.join('\n'), id: this.lastId });
    }
    this.dataLines = [];
    this.eventType = '';
  }
}

/** Parses a whole byte stream (e.g. a fetch response body) into events as they complete. */
export async function* readSseEvents(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent, void, void> {
  const parser = new SseParser();
  for await (const chunk of body) yield* parser.push(chunk);
  yield* parser.end();
}
