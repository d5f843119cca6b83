import { isJsonObject, tryParseJson } from '@app/kit';
import WebSocket from 'ws';

/**
 * ComfyUI's WebSocket (`/ws?clientId=…`), opened before the prompt is queued so no message about it is missed:
 * ComfyUI sends a client the progress and the outcome of the prompts it queued with that client id. Messages are
 * kept from the moment the socket opens, since a cached prompt can finish before `POST /prompt` has answered.
 */

/** The socket's failures; the provider maps them to its error codes. */
export class ComfyUiSocketError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'closed' | 'execution-error' | 'interrupted' | 'stopped',
    message: string,
    /** For `execution-error`: ComfyUI's `exception_type`, `exception_message`, `node_type`. */
    readonly execution?: { exceptionType: string; exceptionMessage: string; nodeType: string },
  ) {
    super(message);
    this.name = 'ComfyUiSocketError';
  }
}

interface ComfyUiMessage {
  type: string;
  data: Record<string, unknown>;
}

export class ComfyUiSocket {
  private readonly messages: ComfyUiMessage[] = [];
  private wake: () => void = () => {};
  private closed = false;
  /** Whether ComfyUI has started running the prompt being waited for (an interrupt would then stop it). */
  started = false;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (raw, isBinary) => {
      // Binary messages are preview pictures.
      if (isBinary) return;
      const parsed = tryParseJson(raw.toString());
      if (isJsonObject(parsed) && typeof parsed.type === 'string' && isJsonObject(parsed.data)) {
        this.messages.push({ type: parsed.type, data: parsed.data });
        this.wake();
      }
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  /** Opens the socket within `timeoutMs`; `signal` gives up at once. */
  static open(url: string, timeoutMs: number, signal: AbortSignal): Promise<ComfyUiSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
      const settle = (error: Error | null) => {
        signal.removeEventListener('abort', onAbort);
        socket.off('open', onOpen).off('error', onError).off('unexpected-response', onUnexpected);
        if (!error) return resolve(new ComfyUiSocket(socket));
        socket.on('error', () => undefined);
        socket.terminate();
        reject(error);
      };
      const onOpen = () => settle(null);
      const onError = (error: Error) =>
        settle(new ComfyUiSocketError('unreachable', `The image provider's WebSocket could not be opened (${error.message})`));
      const onUnexpected = (_request: unknown, response: { statusCode?: number }) =>
        settle(new ComfyUiSocketError('unreachable', `The image provider has no ComfyUI WebSocket at /ws (HTTP ${response.statusCode})`));
      const onAbort = () => settle(new ComfyUiSocketError('stopped', 'Stopped while opening the WebSocket'));
      socket.once('open', onOpen).once('error', onError).once('unexpected-response', onUnexpected);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Resolves when ComfyUI has finished `promptId`, reporting its samplers' progress on the way (never backwards:
   * a second sampler starts again from 0). Rejects on an execution error, an interrupt, a closed socket or `signal`.
   */
  async waitForPrompt(promptId: string, signal: AbortSignal, onProgress?: (fraction: number) => void): Promise<void> {
    let reported = 0;
    const onAbort = () => this.wake();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        if (signal.aborted) throw new ComfyUiSocketError('stopped', 'Stopped while waiting for the picture');
        const message = this.messages.shift();
        if (!message) {
          if (this.closed) throw new ComfyUiSocketError('closed', 'The image provider closed its WebSocket before the picture was done');
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        if (message.data.prompt_id !== promptId) continue;
        if (isFinished(message)) return;
        this.started = true;
        if (message.type === 'execution_error') throw executionError(message.data);
        if (message.type === 'execution_interrupted') {
          throw new ComfyUiSocketError('interrupted', 'The image provider interrupted the generation');
        }
        const fraction = progressOf(message);
        if (fraction !== null && fraction > reported) {
          reported = fraction;
          report(onProgress, fraction);
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  close(): void {
    this.socket.terminate();
  }
}

/** `executing` with no node is ComfyUI's "prompt done" (sent after its history is written); newer versions also send `execution_success`. */
function isFinished({ type, data }: ComfyUiMessage): boolean {
  return (type === 'executing' && data.node === null) || type === 'execution_success';
}

function progressOf({ type, data }: ComfyUiMessage): number | null {
  if (type !== 'progress') return null;
  const { value, max } = data;
  if (typeof value !== 'number' || typeof max !== 'number' || !(max > 0) || !(value >= 0)) return null;
  return Math.min(value / max, 1);
}

function executionError(data: Record<string, unknown>): ComfyUiSocketError {
  const text = (field: string) => (typeof data[field] === 'string' ? (data[field] as string) : '');
  const execution = { exceptionType: text('exception_type'), exceptionMessage: text('exception_message'), nodeType: text('node_type') };
  return new ComfyUiSocketError('execution-error', execution.exceptionMessage || 'The workflow failed', execution);
}

function report(onProgress: ((fraction: number) => void) | undefined, fraction: number): void {
  try {
    onProgress?.(fraction);
  } catch {
    // A listener's failure must not stop the generation.
  }
}
