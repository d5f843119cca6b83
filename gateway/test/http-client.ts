import WebSocket from 'ws';
import { type Client, createClient } from 'graphql-ws';

/** A tiny cookie-keeping client, as a browser would be, for exercising the gateway over real HTTP. */
export class TestClient {
  cookie: string | null = null;

  constructor(readonly baseUrl: string) {}

  async fetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { ...init, headers, body, redirect: 'manual' });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const [pair] = setCookie.split(';');
      this.cookie = pair!.endsWith('=') ? null : pair!;
    }
    return response;
  }

  async graphql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
    const response = await this.fetch('/graphql', { method: 'POST', json: { query, variables }, headers });
    return (await response.json()) as { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  }

  subscriptions(): Client {
    const url = this.baseUrl.replace(/^http/, 'ws') + '/graphql';
    const cookie = this.cookie;
    return createClient({
      url,
      lazy: false,
      retryAttempts: 0,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { headers: cookie ? { cookie } : {} });
        }
      },
    });
  }
}

export const registration = (overrides: Record<string, unknown> = {}) => {
  const email = `m${Math.random().toString(36).slice(2, 10)}@example.com`;
  return {
    email,
    password: 'a long enough password',
    confirmPassword: 'a long enough password',
    dateOfBirth: '1990-01-01',
    acceptTerms: true,
    ...overrides,
  };
};

/** Collects the next `count` values of a subscription. */
export function collect<T>(client: Client, query: string, count: number): { values: T[]; done: Promise<T[]>; stop(): void } {
  const values: T[] = [];
  let stop = () => undefined as void;
  const done = new Promise<T[]>((resolve, reject) => {
    stop = client.subscribe<T>(
      { query },
      {
        next: (result) => {
          if (result.errors) return reject(new Error(result.errors.map((error) => error.message).join('; ')));
          values.push(result.data as T);
          if (values.length >= count) resolve(values);
        },
        error: reject,
        complete: () => resolve(values),
      },
    );
  });
  return { values, done, stop: () => stop() };
}
