import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Express from '@opentelemetry/instrumentation-express';
import type * as GraphQL from '@opentelemetry/instrumentation-graphql';
import type * as Http from '@opentelemetry/instrumentation-http';
import type * as Pg from '@opentelemetry/instrumentation-pg';
import type * as Undici from '@opentelemetry/instrumentation-undici';
import type * as Sdk from '@opentelemetry/sdk-node';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import { type TracingExporter, tracingEnvironment } from '../env/kit.environment';
import { markTracingStarted } from './spans';

/** Probes and scrapes would be most of the traces and say nothing. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

let sdk: Sdk.NodeSDK | null = null;

/**
 * Starts OpenTelemetry as TRACING_EXPORTER says, naming the process SERVICE_NAME or else `serviceName`. With `none`
 * (the default) nothing is loaded. The instrumentations patch http, express, pg, graphql and undici as they are
 * first required, so this must run before anything imports them: each process's main imports its
 * `@app/kit/tracing-entry/<name>` first. Returns whether tracing is on.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (sdk) return true;
  let exporterName: TracingExporter;
  try {
    exporterName = tracingEnvironment.parse(env).TRACING_EXPORTER;
  } catch {
    // The process checks its whole environment next and stops, naming the invalid value.
    return false;
  }
  if (exporterName === 'none') return false;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof Sdk;
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof Http;
  const { ExpressInstrumentation, ExpressLayerType } = require('@opentelemetry/instrumentation-express') as typeof Express;
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof Pg;
  const { GraphQLInstrumentation } = require('@opentelemetry/instrumentation-graphql') as typeof GraphQL;
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof Undici;
  /* eslint-enable @typescript-eslint/no-require-imports */
  sdk = new NodeSDK({
    serviceName: env.SERVICE_NAME?.trim() || serviceName,
    traceExporter: createExporter(exporterName),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]!),
        // Outgoing calls belong to a request's trace; the process's own background calls would be lone roots.
        requireParentforOutgoingSpans: true,
      }),
      // Routers and handlers; one span per middleware would bury them.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation({ requireParentSpan: true }),
      // Parse, validate and execute of each operation; one span per resolved field would be most of the trace.
      new GraphQLInstrumentation({ ignoreResolveSpans: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
    // Traces only: metrics are Prometheus's (prom-client) and logs are pino's on stdout.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  markTracingStarted(true);
  return true;
}

function createExporter(name: Exclude<TracingExporter, 'none'>): SdkTrace.SpanExporter {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  if (name === 'console') {
    const { ConsoleSpanExporter } = require('@opentelemetry/sdk-trace') as typeof SdkTrace;
    return new ConsoleSpanExporter();
  }
  // OTLP/HTTP with JSON bodies; it reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and _HEADERS itself.
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return new OTLPTraceExporter();
}

/** Sends the spans still buffered and stops tracing: the last step of a process's shutdown. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = null;
  if (!running) return;
  markTracingStarted(false);
  await running.shutdown().catch(() => undefined);
}
