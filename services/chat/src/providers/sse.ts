import { type EventSourceParser, createParser } from 'eventsource-parser';

/**
 * Server-sent events (the WHATWG "text/event-stream" format) as AI providers send them, parsed by
 * eventsource-parser: bytes arrive in arbitrary pieces (even inside a multi-byte UTF-8 character, which
 * the decoder here reassembles), any line ending, comments (`: keep-alive`) skipped, `data:` lines joined.
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
  private readonly parser: EventSourceParser;
  private completed: SseEvent[] = [];
  private lastId: string | null = null;
  private started = false;
  private ended = false;

  constructor() {
    this.parser = createParser({
      onEvent: (message) => {
        // The standard's last event id outlives the event that set it.
        if (message.id !== undefined) this.lastId = message.id;
        this.completed.push({ event: message.event ?? 'message', data: message.data, id: this.lastId });
      },
      onError: (error) => {
        if (error.type === 'unknown-field' && error.field === 'error') {
          this.completed.push({ event: 'error', data: error.value ?? '', id: this.lastId });
        }
      },
    });
  }

  /** Feeds the next piece of the stream; returns the events it completed, in order. */
  push(chunk: Uint8Array | string): SseEvent[] {
    if (this.ended) throw new Error('SseParser.push() after end()');
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    // TextDecoder already drops a byte-order mark; strings fed directly may still carry one.
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.parser.feed(text);
    return this.take();
  }

  /** Signals the end of the stream; returns any event still pending (see the class comment). */
  end(): SseEvent[] {
    if (this.ended) return [];
    this.ended = true;
    // Ending the last line and the event it belongs to dispatches what a server left unterminated.
    this.parser.feed(`${this.decoder.decode()}\n\n`);
    return this.take();
  }

  private take(): SseEvent[] {
    const events = this.completed;
    this.completed = [];
    return events;
  }
}

/** Parses a whole byte stream (e.g. a fetch response body) into events as they complete. */
export async function* readSseEvents(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent, void, void> {
  const parser = new SseParser();
  for await (const chunk of body) yield* parser.push(chunk);
  yield* parser.end();
}
