/**
 * Writes nats-server's configuration from BUS_PERMISSIONS: a user per process of the platform, with the
 * subjects its role needs, passwords taken from the environment; optionally TLS and an operator user.
 *
 *   npm run nats:config                                   # → docker/nats.conf (what docker/compose.yml runs)
 *   npm run nats:config -- --out /etc/nats/platform.conf \
 *     --tls-cert /etc/nats/server.pem --tls-key /etc/nats/server.key [--tls-ca /etc/nats/ca.pem] [--operator]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderNatsServerConfig } from '@app/kit';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: path.join(__dirname, 'nats.conf') },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'tls-ca': { type: 'string' },
    operator: { type: 'boolean', default: false },
  },
});

const certFile = values['tls-cert'];
const keyFile = values['tls-key'];
if (Boolean(certFile) !== Boolean(keyFile)) {
  console.error('--tls-cert and --tls-key go together');
  process.exit(1);
}
const tls = certFile && keyFile ? { certFile, keyFile, caFile: values['tls-ca'] } : undefined;
fs.writeFileSync(values.out, renderNatsServerConfig({ tls, operator: values.operator }));
process.stdout.write(`Wrote ${values.out}\n`);
