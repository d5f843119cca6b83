// Container health probe: exits 0 when this process answers GET /readyz (database and bus reachable).
// Services listen on HEALTH_PORT; the gateway and the embedded server on PORT.
const port = process.env.HEALTH_PORT || process.env.PORT || '3000';

fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(4000) })
  .then((response) => process.exit(response.ok ? 0 : 1))
  .catch(() => process.exit(1));
