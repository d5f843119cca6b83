import { BUS_PRINCIPALS, type BusPrincipal } from '@app/schema';
import { Environment, type Variable, flag, integer, oneOf, text, url } from './environment';

/** Where state lives and how processes meet: read by every process of the platform. */
/** What each service advertises in `nats micro info` unless SERVICE_VERSION says otherwise. */
export const DEFAULT_SERVICE_VERSION = '0.1.0';

export const infraEnvironment = new Environment('every process', {
  DATA_DIR: text('./data', {
    meaning:
      'Embedded state: PGlite in `DATA_DIR/pg`, the event log in `DATA_DIR/events`, image files in `DATA_DIR/objects` (when `S3_BUCKET` is unset). `memory://<name>` keeps all three in memory (tests).',
  }),
  DATABASE_URL: url(null, {
    schemes: ['postgres:', 'postgresql:'],
    meaning:
      'PostgreSQL connection URL. Set: PostgreSQL, a pool of 10 per service process. Unset: PGlite under `DATA_DIR`. A query waits at most 5 s for a pooled connection; past that, or while the server cannot be reached, requests answer 503 with `Retry-After: 5`.',
  }),
  NATS_URL: url(null, {
    schemes: ['nats:', 'tls:', 'ws:', 'wss:'],
    list: true,
    meaning:
      'NATS server URL(s), comma-separated. Set: NATS + JetStream. Unset: in-process bus. `tls://` URLs require TLS (see [Bus security](#bus-security)). With `DATABASE_URL` also set, the platform runs distributed.',
  }),
  NATS_TLS_CA_FILE: text(null, {
    meaning:
      "PEM file of the CA that signed the NATS server's certificate. Set (or a `tls://` URL): TLS is required; unset with TLS: the system's CAs.",
  }),
  NATS_TLS_CERT_FILE: text(null, {
    meaning: 'PEM client certificate for servers that verify clients (mutual TLS); requires `NATS_TLS_KEY_FILE`.',
  }),
  NATS_TLS_KEY_FILE: text(null, { meaning: 'PEM private key of `NATS_TLS_CERT_FILE`.' }),
  NODE_ENV: text(null, {
    meaning:
      '`test` makes `LOG_LEVEL` default to `silent`; `production` makes every process refuse a NATS server that lets clients in without credentials.',
  }),
  SERVICE_VERSION: text(DEFAULT_SERVICE_VERSION, {
    // The services protocol requires semantic versions; anything else would make `nats micro` reject the answers.
    pattern: {
      test: /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/,
      message: 'must be a semantic version such as 1.4.0',
    },
    meaning: 'Version each service advertises in the NATS services protocol (`nats micro info`); must be a semantic version.',
  }),
});

/** The NATS password of each principal: read by that principal's process (and the embedded launcher, which runs them all). */
const principalPasswords = Object.fromEntries(
  BUS_PRINCIPALS.map((principal) => [
    natsPasswordVariable(principal),
    text(null, {
      secret: true,
      meaning: `The ${principal} principal's NATS password (user \`${principal}\`). Unset: ${principal} connects without credentials (refused with \`NODE_ENV=production\`).`,
    }),
  ]),
) as Record<string, Variable<string | null>>;

export const natsCredentialsEnvironment = new Environment("each principal's process, embedded launcher, nats-server (`docker/nats.conf`)", {
  ...principalPasswords,
  NATS_OPERATOR_PASSWORD: text(null, {
    secret: true,
    meaning:
      'Password of the `operator` user, for the `nats` CLI and `npm run events -- tail`; read by nats-server (with a configuration generated with `--operator`) and by the tail command, never by the services.',
  }),
});

/** The variable holding a principal's NATS password, read by that process and by nats-server's configuration. */
export function natsPasswordVariable(principal: BusPrincipal): string {
  return `NATS_${principal.toUpperCase()}_PASSWORD`;
}

export const loggingEnvironment = new Environment('every process', {
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], null, {
    defaultText: '`info` (`silent` with `NODE_ENV=test`)',
    meaning: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`.',
  }),
  SERVICE_NAME: text('app', { meaning: 'The `service` field on every log line.' }),
});

export const TRACING_EXPORTERS = ['none', 'otlp', 'console'] as const;
export type TracingExporter = (typeof TRACING_EXPORTERS)[number];

/** OpenTelemetry tracing; the `OTEL_*` variables are read by the exporter itself and checked here so a typo stops the process. */
export const tracingEnvironment = new Environment('every process', {
  TRACING_EXPORTER: oneOf(TRACING_EXPORTERS, 'none', {
    meaning:
      'Where OpenTelemetry spans go: `none` (tracing off, nothing loaded), `otlp` (OTLP over HTTP to a collector, see `OTEL_EXPORTER_OTLP_ENDPOINT`) or `console` (printed to stdout, for a quick look). A trace follows a request from the gateway across the bus into the services and their PostgreSQL queries (see the runbook).',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(null, {
    defaultText: '`http://localhost:4318`',
    meaning: "With `TRACING_EXPORTER=otlp`: the collector's OTLP/HTTP base URL; spans are sent to `<url>/v1/traces`.",
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url(null, {
    meaning: 'With `TRACING_EXPORTER=otlp`: the full URL spans are sent to, used as is; overrides `OTEL_EXPORTER_OTLP_ENDPOINT`.',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: text(null, {
    secret: true,
    meaning:
      "With `TRACING_EXPORTER=otlp`: headers sent with every export, `name=value` pairs separated by commas (a hosted collector's API key).",
  }),
});

export const DEFAULT_OUTBOX_RETENTION_HOURS = 24;

/** Every service that writes events: how long relayed outbox rows are kept. */
export const outboxEnvironment = new Environment('identity, chat, media', {
  OUTBOX_RETENTION_HOURS: integer(DEFAULT_OUTBOX_RETENTION_HOURS, {
    min: 1,
    meaning:
      'How long a service keeps an outbox row after relaying it to the event stream, for inspection; older ones are deleted every 10 minutes.',
  }),
});

export const listenEnvironment = new Environment('gateway, standalone services', {
  HOST: text('127.0.0.1', {
    meaning: "Listen address of the gateway and of a service's health endpoint. Use `0.0.0.0` in containers.",
  }),
});

export const standaloneEnvironment = new Environment('standalone services', {
  HEALTH_PORT: integer(0, {
    min: 0,
    max: 65_535,
    defaultText: '`0` (any free port)',
    meaning: "Port of a service's `/healthz` and `/readyz`.",
  }),
});

export const storageEnvironment = new Environment('media, gateway', {
  S3_BUCKET: text(null, {
    defaultText: 'unset (files under `DATA_DIR/objects`)',
    meaning:
      'Set: image files are kept in this bucket of an S3-compatible store; media creates it at start if it is missing. The other `S3_*` are read only with it.',
  }),
  S3_ENDPOINT: url(null, {
    defaultText: 'unset (AWS S3)',
    meaning: 'URL of an S3-compatible server, e.g. `http://127.0.0.1:9000` for MinIO.',
  }),
  S3_PUBLIC_ENDPOINT: url(null, {
    defaultText: '`S3_ENDPOINT` (AWS S3 when that is unset too)',
    meaning:
      "The same server as browsers reach it, when `S3_ENDPOINT` is an address only the services can reach (e.g. `http://minio:9000` in docker compose): browsers' upload URLs (presigned PUT, POST and multipart parts) are signed for it, and the gateway's CSP `connect-src` allows its origin. The bucket needs CORS for the site (decision 038).",
  }),
  S3_REGION: text('us-east-1', { meaning: 'Region.' }),
  S3_ACCESS_KEY_ID: text(null, {
    defaultText: 'none; required with `S3_BUCKET`',
    meaning: 'Access key. `S3_BUCKET` without both keys stops the process at start.',
  }),
  S3_SECRET_ACCESS_KEY: text(null, { secret: true, defaultText: 'none; required with `S3_BUCKET`', meaning: 'Secret key.' }),
  S3_FORCE_PATH_STYLE: flag(true, {
    meaning:
      'Path-style URLs (bucket in the path), as MinIO and most self-hosted servers need; `false` uses virtual-hosted-style URLs (bucket in the host name).',
  }),
});

export const metricsEnvironment = new Environment('gateway, standalone services', {
  METRICS_TOKEN: text(null, {
    minLength: 16,
    secret: true,
    meaning:
      "At least 16 characters. Set: Prometheus scrapes the gateway's `/metrics` (and each service's, on `HEALTH_PORT`) with `Authorization: Bearer <METRICS_TOKEN>`; without it `401`. Unset: the gateway answers `/metrics` with `404`, and the services' health port serves it to anyone who reaches that internal port.",
  }),
});
