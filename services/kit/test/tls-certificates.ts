import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCertificates {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
}

/** A throwaway CA with a server certificate for 127.0.0.1 and a client certificate, made with `openssl`. */
export function createTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-tls-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=platform test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  );
  for (const [name, extensions] of [
    ['server', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth'],
    ['client', 'extendedKeyUsage=clientAuth'],
  ] as const) {
    fs.writeFileSync(file(`${name}.ext`), `${extensions}\n`);
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
  }
  return {
    dir,
    caFile: file('ca.pem'),
    serverCertFile: file('server.pem'),
    serverKeyFile: file('server.key'),
    clientCertFile: file('client.pem'),
    clientKeyFile: file('client.key'),
  };
}
