import { BUS_PRINCIPALS, type BusPrincipal } from '@app/schema';
import { natsPasswordVariable } from '../env/kit.environment';
import { natsPermissionsOf } from './nats-permissions';

export interface NatsServerTls {
  /** The server's certificate chain and private key (PEM). */
  certFile: string;
  keyFile: string;
  /** CA for verifying client certificates; with it, clients must present one (mutual TLS). */
  caFile?: string;
}

const HEADER = `# nats-server authorization for the platform, generated from BUS_PERMISSIONS
# (schema/src/bus/permissions.ts) by \`npm run nats:config\`: regenerate it, do not edit it.
# Each process signs in as its own user and may use only the subjects its role needs. Passwords come
# from the environment (NATS_<PRINCIPAL>_PASSWORD, the same variable the process reads), so the
# server does not start without them.
`;

// Character cards (up to 8 MB) cross the bus base64-encoded; NATS's default of 1 MB would refuse most of them.
const MAX_PAYLOAD = `# Character cards (up to 8 MB) cross the bus base64-encoded.\nmax_payload: 12MB\n`;

export interface NatsServerConfigOptions {
  tls?: NatsServerTls;
  /** Adds the user `operator` with every right, for people's tools (`nats micro ls`, `nats stream view`); never for a process. */
  operator?: boolean;
}

/** The variable holding the password of the `operator` user, when the configuration has one. */
export const NATS_OPERATOR_PASSWORD_VARIABLE = 'NATS_OPERATOR_PASSWORD';

/** The nats-server configuration (users, subject permissions, optional TLS) for every principal. */
export function renderNatsServerConfig(options: NatsServerConfigOptions = {}): string {
  const users = [...BUS_PRINCIPALS.map(renderUser), ...(options.operator ? [renderOperator()] : [])].join('\n');
  const sections = [HEADER, MAX_PAYLOAD, `authorization {\n  users = [\n${users}\n  ]\n}\n`];
  if (options.tls) sections.push(renderTls(options.tls));
  return sections.join('\n');
}

function renderUser(principal: BusPrincipal): string {
  const { publish, subscribe, allowResponses } = natsPermissionsOf(principal);
  const lines = [
    '    {',
    `      user: ${quote(principal)}`,
    `      password: $${natsPasswordVariable(principal)}`,
    '      permissions: {',
    `        publish: { allow: ${list(publish, 8)} }`,
    `        subscribe: { allow: ${list(subscribe, 8)} }`,
    ...(allowResponses ? ['        allow_responses: true'] : []),
    '      }',
    '    }',
  ];
  return lines.join('\n');
}

function renderOperator(): string {
  return [
    '    {',
    `      user: "operator"`,
    `      password: $${NATS_OPERATOR_PASSWORD_VARIABLE}`,
    '      permissions: { publish: ">", subscribe: ">" }',
    '    }',
  ].join('\n');
}

function renderTls(tls: NatsServerTls): string {
  const lines = [`  cert_file: ${quote(tls.certFile)}`, `  key_file: ${quote(tls.keyFile)}`];
  if (tls.caFile) lines.push(`  ca_file: ${quote(tls.caFile)}`, '  verify: true');
  return `tls {\n${lines.join('\n')}\n}\n`;
}

const list = (subjects: string[], indent: number) =>
  `[\n${subjects.map((subject) => `${' '.repeat(indent + 2)}${quote(subject)}`).join('\n')}\n${' '.repeat(indent)}]`;

// Quoted, so `$JS.…` subjects are taken literally rather than as variables.
const quote = (value: string) => JSON.stringify(value);
