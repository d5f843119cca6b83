import { Environment, flag, integer, oneOf, text } from '@app/kit';
import { defaultMaxHeapUsedBytes } from './http/load-shedding';

const MS = { min: 1 };

/** Everything the gateway reads from its environment (the README's configuration table comes from here). */
export const gatewayEnvironment = new Environment('gateway', {
  PORT: integer(3000, { min: 0, max: 65_535, meaning: 'HTTP and WebSocket port.' }),
  WEB_DIST: text(null, {
    defaultText: '`<repo>/web/dist`',
    meaning: 'Directory of the built web app. When it has no `index.html`, page paths answer 503 with a hint to build it.',
  }),
  TRUST_PROXY_HOPS: integer(0, {
    min: 0,
    meaning:
      'Number of reverse proxies in front whose `X-Forwarded-For` / `X-Forwarded-Proto` are trusted. `0`: the socket address counts, so a forged header cannot dodge the throttles.',
  }),
  COOKIE_SECURE: flag(false, {
    meaning: '`true` always sets `Secure` on the session cookie; otherwise it is set when the request arrived over HTTPS.',
  }),
  OPERATOR_TOKEN: text(null, {
    minLength: 16,
    secret: true,
    meaning:
      'At least 16 characters; a shorter one stops the gateway at start. Enables the operator-only `grantTokens` mutation, called with `Authorization: Bearer <OPERATOR_TOKEN>`. Unset: operator mutations answer `FORBIDDEN`.',
  }),
  UPLOAD_SIGNING_SECRET: text(null, {
    minLength: 32,
    secret: true,
    meaning:
      'At least 32 characters; a shorter one stops the gateway at start. Signs the upload links the gateway itself receives (local and memory storage; with S3 the bucket takes presigned uploads instead). Give every gateway sharing the storage the same one: a link then works on any of them and after a restart. Unset: a random secret of each process, so a link works only on the gateway that gave it, until it restarts.',
  }),
  GRAPHQL_RATE_LIMIT_PER_ADDRESS: integer(1200, {
    min: 0,
    meaning:
      'Requests to `/graphql` one client address may make per window (`GRAPHQL_RATE_LIMIT_WINDOW_SECONDS`), signed in or not; past it `429` with `Retry-After`. `0` turns it off. Counted in PostgreSQL when `DATABASE_URL` is set, so it holds across gateways.',
  }),
  GRAPHQL_RATE_LIMIT_PER_CREDENTIAL: integer(600, {
    min: 0,
    meaning: 'Requests to `/graphql` per window for one access token, or for one member across their browser sessions. `0` turns it off.',
  }),
  GRAPHQL_RATE_LIMIT_WINDOW_SECONDS: integer(60, { min: 1, max: 86_400, meaning: 'The window both `/graphql` rate limits count in.' }),
  GRAPHQL_APQ: flag(true, {
    defaultText: '`true`',
    meaning:
      "Automatic persisted queries: a client may send a document once with its SHA-256 and the hash alone afterwards (about 10 MB of documents kept per gateway, least recently used out first). `false`: unknown hashes are answered `PERSISTED_QUERY_NOT_FOUND` and full documents run without being kept. The web app's own documents are always known by their hash (its trusted documents).",
  }),
  GRAPHQL_INTROSPECTION: flag(true, { defaultText: '`true`', meaning: '`false` disables introspection.' }),
  MAX_IN_FLIGHT: integer(256, {
    min: 1,
    meaning:
      'Requests worked on at once, from arrival to the end of the response, before the gateway answers `503` with `Retry-After: 1`. When all are taken, a request whose body has been arriving for over a second gives its slot up first (408).',
  }),
  MAX_EVENT_LOOP_DELAY_MS: integer(1000, {
    min: 0,
    meaning:
      'The gateway answers `503` with `Retry-After: 1` (and `/readyz` 503) while the event loop is stalled this long: the current loop turn has run longer, or two sample windows in a row saw a longer stall. `0` turns the check off.',
  }),
  QUIET_ADDRESS_REQUESTS_PER_SECOND: integer(20, {
    min: 0,
    meaning:
      'While the loop is stalled, an address that has sent at most this many requests this second is still served, so a flood is shed rather than the member who clicks at the same time.',
  }),
  MAX_HEAP_USED_BYTES: integer(defaultMaxHeapUsedBytes, {
    min: 0,
    defaultText: "90% of V8's heap limit",
    meaning: '`503` while the V8 heap in use is above it. `0` turns the check off.',
  }),
  MAX_RSS_BYTES: integer(0, {
    min: 0,
    defaultText: '`0` (off)',
    meaning: "`503` while the process's resident memory is above it (set it below a container's memory limit).",
  }),
  PRESSURE_SAMPLE_INTERVAL_MS: integer(500, { ...MS, meaning: 'How often event-loop lag and memory are sampled.' }),
  HTTP_HEADERS_TIMEOUT_MS: integer(10_000, { ...MS, meaning: "Time a client has to send a request's headers." }),
  HTTP_REQUEST_TIMEOUT_MS: integer(60_000, { ...MS, meaning: 'Time a client has to send a whole request, headers and body.' }),
  HTTP_BODY_IDLE_TIMEOUT_MS: integer(10_000, {
    ...MS,
    meaning:
      'A body that stops arriving for this long is answered 408 and its connection closed. Once it has arrived, slow answers (a reply, an image) are not limited by it.',
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(5_000, { ...MS, meaning: 'How long an idle keep-alive connection stays open.' }),
  MAX_CONNECTIONS_PER_ADDRESS: integer(null, {
    min: 0,
    defaultText: '`128`; `0` (off) when `TRUST_PROXY_HOPS` > 0',
    meaning:
      'Open connections (HTTP and WebSocket) one client address may hold; more are closed at once. Behind a proxy every client looks like the proxy, so the proxy must enforce this.',
  }),
  GRAPHQL_EXECUTION_TIMEOUT_MS: integer(15_000, {
    ...MS,
    meaning:
      'How long one GraphQL query or mutation (over HTTP or WebSocket) may spend calling services; calls past it fail at once with `TIMEOUT`. Subscriptions are not limited.',
  }),
  WS_MAX_SUBSCRIPTIONS_PER_SOCKET: integer(20, {
    ...MS,
    meaning: 'Operations open at once on one WebSocket; a socket asking for more is closed with 4429.',
  }),
  WS_MAX_SOCKETS_PER_MEMBER: integer(10, {
    ...MS,
    meaning: 'WebSockets one member may hold open at once on one gateway instance; one more is closed with 4429.',
  }),
  WS_SESSION_CHECK_MS: integer(60_000, {
    ...MS,
    meaning:
      'How often the session behind each open WebSocket is checked again; a session that has ended closes its sockets (code 4401). A sign-out on any gateway closes them at once.',
  }),
  SESSION_CACHE_MS: integer(1_000, {
    min: 0,
    max: 60_000,
    meaning:
      'How long the gateway reuses a session it looked up before asking identity again, so a burst of requests costs one round trip. A sign-out on any gateway, or a write by the member through this one, drops it at once; a balance changed elsewhere (a refund) shows after at most this long. `0` asks identity every time.',
  }),
  MEDIA_WAIT_TIMEOUT_MS: integer(180_000, {
    ...MS,
    meaning: 'How long `POST /api/generate/image` waits for the image before answering 504 `TIMEOUT`; the job carries on.',
  }),
  MEDIA_GENERATIONS_PER_IP_PER_MINUTE: integer(30, {
    min: 0,
    meaning:
      'Image generations one client address may start per minute, across accounts (per gateway instance); past it `RATE_LIMITED` (429 with `Retry-After`). Refused attempts count too.',
  }),
});

/** Public, non-secret settings served to the web app as `/app-config.js`; unset ones take the web app's defaults. */
export const publicWebEnvironment = new Environment('gateway → web', {
  BRAND_NAME: text('Velvet AI', { meaning: 'Product name shown by the web app (served in `/app-config.js`).' }),
  MAIN_SITE_URL: text(null, {
    defaultText: '`/`',
    meaning: "The provider's main site, opened in a new tab by the landing page's hero button.",
  }),
  RELAUNCH_URL: text(null, { defaultText: '`/`', meaning: 'The new platform the relaunch notice (`/relaunch`) links to, in a new tab.' }),
  SOCIAL_MICROBLOG_URL: text(null, { defaultText: '`https://x.com/velvetai`', meaning: 'Microblogging account linked in the footer.' }),
  SOCIAL_COMMUNITY_URL: text(null, {
    defaultText: '`https://discord.gg/velvetai`',
    meaning: 'Community server invite linked in the footer and on the landing page.',
  }),
  SUPPORT_EMAIL: text(null, { defaultText: '`support@velvet-ai.app`', meaning: 'Support address (footer, legal pages).' }),
  LEGAL_JURISDICTION: text(null, {
    defaultText: "unset (the Terms say “the laws of the operator's place of business”)",
    meaning: 'Whose laws govern the Terms of Service and whose courts hear disputes, as the Terms name it (e.g. `England and Wales`).',
  }),
  LAUNCH_DATE: text(null, {
    defaultText: '`2025-10-01T00:00:00Z`',
    meaning: 'ISO-8601 instant the landing countdown counts down to. A value that does not parse as a date stops the gateway at start.',
  }),
  ANALYTICS_PROVIDER: oneOf(['plausible', 'ga4'], null, {
    defaultText: 'unset (no analytics)',
    meaning:
      '`plausible` or `ga4` (anything else stops the gateway). Analytics runs only when `ANALYTICS_PROVIDER`, `ANALYTICS_ENDPOINT` and `ANALYTICS_SITE_ID` are all set; see [Web](#web).',
  }),
  ANALYTICS_ENDPOINT: text(null, {
    meaning:
      'Event endpoint, e.g. `https://plausible.io/api/event` or a GA4-compatible `https://www.google-analytics.com/g/collect`. When it is an absolute http(s) URL its origin is added to the CSP `connect-src`.',
  }),
  ANALYTICS_SITE_ID: text(null, { meaning: 'Plausible domain or GA4 measurement id.' }),
  AGE_VERIFICATION_REQUIRED: flag(false, {
    meaning:
      '`true`: content rated above safe is hidden from members whose age is only self-declared (the sign-up date of birth) until an age-assurance provider has verified it, and they are told how. See [Trust and safety](#trust-and-safety).',
  }),
  API_DOCS_ENABLED: flag(true, {
    meaning: '`false` hides the API documentation: `/developers` shows the not-found page and no link leads to it.',
  }),
  GRAPHQL_EXPLORER_ENABLED: flag(true, {
    meaning:
      'The GraphQL explorer (GraphiQL, from the web bundle) at `/developers/explorer`, signed in by the session cookie or a pasted access token. `false`: that path answers 404.',
  }),
});
