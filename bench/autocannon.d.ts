// The part of autocannon 9's programmatic API the benches use (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
      headers?: Record<string, string>;
      body?: string;
      /** A response with another body counts as a mismatch. */
      expectBody?: string;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      /** Seconds, measured. */
      duration: number;
      requests: Histogram;
      latency: Histogram;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      '2xx': number;
    }

    interface Instance extends EventEmitter {
      on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this;
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export = autocannon;
}
