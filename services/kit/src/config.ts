import fs from 'node:fs';
import path from 'node:path';
import { BUS_PRINCIPALS, type BusPrincipal } from '@app/schema';

/** Reads infrastructure settings; the embedded defaults need nothing installed. */
export interface InfraConfig {
  dataDir: string;
  databaseUrl: string | null;
  natsUrl: string | null;
  /** How processes sign in to NATS and check its certificate; absent means anonymous, plain unless the server offers TLS. */
  nats?: NatsSecurity;
}

export interface NatsSecurity {
  /** Each principal's password (its NATS user name is the principal's name), from NATS_<PRINCIPAL>_PASSWORD. */
  passwords: Partial<Record<BusPrincipal, string>>;
  /** Set when TLS is required: a tls:// URL or any NATS_TLS_* file. */
  tls: NatsTls | null;
  /** Refuse a server that lets anyone in (production), instead of only warning. */
  requireAuthentication: boolean;
}

export interface NatsTls {
  /** CA that signed the server's certificate; the system's CAs when absent. */
  caFile?: string;
  /** Client certificate and key, for servers that verify clients (mutual TLS). */
  certFile?: string;
  keyFile?: string;
}

export function readInfraConfig(env: NodeJS.ProcessEnv = process.env): InfraConfig {
  const natsUrl = env.NATS_URL || null;
  return {
    dataDir: resolveDataDir(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || null,
    natsUrl,
    nats: natsUrl ? readNatsSecurity(env, natsUrl) : undefined,
  };
}

/** The variable holding a principal's NATS password, read by that process and by nats-server's configuration. */
export const natsPasswordVariable = (principal: BusPrincipal) => `NATS_${principal.toUpperCase()}_PASSWORD`;

function readNatsSecurity(env: NodeJS.ProcessEnv, natsUrl: string): NatsSecurity {
  const passwords: NatsSecurity['passwords'] = {};
  for (const principal of BUS_PRINCIPALS) {
    const password = env[natsPasswordVariable(principal)];
    if (password) passwords[principal] = password;
  }
  return { passwords, tls: readNatsTls(env, natsUrl), requireAuthentication: env.NODE_ENV === 'production' };
}

function readNatsTls(env: NodeJS.ProcessEnv, natsUrl: string): NatsTls | null {
  const files = {
    caFile: readFileSetting(env, 'NATS_TLS_CA_FILE'),
    certFile: readFileSetting(env, 'NATS_TLS_CERT_FILE'),
    keyFile: readFileSetting(env, 'NATS_TLS_KEY_FILE'),
  };
  if (Boolean(files.certFile) !== Boolean(files.keyFile)) throw new Error('NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE must be set together');
  const wantsTls = natsUrl.split(',').some((url) => url.trim().startsWith('tls://')) || Object.values(files).some(Boolean);
  if (!wantsTls) return null;
  return Object.fromEntries(Object.entries(files).filter(([, file]) => file)) as NatsTls;
}

function readFileSetting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const file = env[name];
  if (!file) return undefined;
  if (!fs.existsSync(file)) throw new Error(`${name} points to ${file}, which does not exist`);
  return path.resolve(file);
}

export function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

/** `memory://` keeps the embedded database in memory (tests); anything else is a directory. */
function resolveDataDir(value: string): string {
  return value.startsWith('memory://') ? value : path.resolve(value);
}
