import fs from 'node:fs';
import path from 'node:path';
import { BUS_PRINCIPALS, type BusPrincipal } from '@app/schema';
import { type EventRetention, readEventRetention } from './bus/event-retention';
import { type SharedPglite, openSharedPglite } from './db/pglite-pool';
import { infraEnvironment, natsCredentialsEnvironment, natsPasswordVariable } from './env/kit.environment';
import { MemoryStorage } from './storage/local-storage';
import { type S3StorageConfig, readS3Config } from './storage/s3-storage';

/** Where the platform's state lives and how its processes meet, as settings (tests write these by hand). */
export interface InfraConfig {
  /** A directory, or `memory://<name>` to keep embedded state in memory. */
  dataDir: string;
  databaseUrl: string | null;
  natsUrl: string | null;
  /** How processes sign in to NATS and check its certificate; absent means anonymous, plain unless the server offers TLS. */
  nats?: NatsSecurity;
  /** The version services advertise in the NATS services protocol (SERVICE_VERSION). */
  serviceVersion?: string;
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

/**
 * How the platform runs: `distributed` with PostgreSQL and NATS, `embedded` with its state under DATA_DIR,
 * `embedded-in-memory` with nothing written anywhere (tests).
 */
export type RunMode = 'embedded' | 'embedded-in-memory' | 'distributed';

/** Embedded state (PGlite, the event log, image files) lives in a directory or in this process's memory. */
export type DataLocation = { kind: 'directory'; path: string } | { kind: 'memory'; name: string };

/**
 * The infrastructure a process runs on, decided once at start from its settings: every factory (database,
 * bus, object storage, data-directory lock) switches on it. It also holds what the parts of one process share
 * (the embedded database, in-memory image files), so nothing of the kind lives in a module-level singleton.
 */
export class Infra {
  readonly mode: RunMode;
  readonly data: DataLocation;
  private pglite: SharedPglite | null = null;
  private memoryObjects: MemoryStorage | null = null;

  private constructor(
    readonly settings: InfraConfig,
    /** How much event history the bus keeps (EVENTS_MAX_*). */
    readonly retention: EventRetention,
    /** The S3-compatible store for image files; null keeps them with the rest of the embedded state. */
    readonly s3: S3StorageConfig | null,
  ) {
    this.data = settings.dataDir.startsWith(MEMORY_PREFIX)
      ? { kind: 'memory', name: settings.dataDir.slice(MEMORY_PREFIX.length) }
      : { kind: 'directory', path: path.resolve(settings.dataDir) };
    this.mode = settings.databaseUrl && settings.natsUrl ? 'distributed' : this.data.kind === 'memory' ? 'embedded-in-memory' : 'embedded';
  }

  /** From hand-written settings; retention and S3 come from `env` (nothing set: the defaults, files kept locally). */
  static from(settings: InfraConfig, env: NodeJS.ProcessEnv = {}): Infra {
    return new Infra(settings, readEventRetention(env), readS3Config(env));
  }

  /** From the environment (DATA_DIR, DATABASE_URL, NATS_URL, NATS_*, EVENTS_MAX_*, S3_*); an invalid value throws, naming it. */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): Infra {
    const vars = infraEnvironment.parse(env);
    const natsUrl = vars.NATS_URL;
    const settings: InfraConfig = {
      dataDir: vars.DATA_DIR,
      databaseUrl: vars.DATABASE_URL,
      natsUrl,
      nats: natsUrl ? readNatsSecurity(env, natsUrl) : undefined,
      serviceVersion: vars.SERVICE_VERSION,
    };
    return Infra.from(settings, env);
  }

  get databaseUrl(): string | null {
    return this.settings.databaseUrl;
  }

  get natsUrl(): string | null {
    return this.settings.natsUrl;
  }

  get nats(): NatsSecurity | undefined {
    return this.settings.nats;
  }

  get serviceVersion(): string | undefined {
    return this.settings.serviceVersion;
  }

  /** The directory of the embedded state, or null when it is kept in memory. */
  get dataDir(): string | null {
    return this.data.kind === 'directory' ? this.data.path : null;
  }

  /** Where the in-process bus keeps its event log; null on NATS or in memory. */
  get eventLogDir(): string | null {
    return this.natsUrl || !this.dataDir ? null : path.join(this.dataDir, 'events');
  }

  /** The one PGlite of this process's services (PGlite has one connection; two instances on one directory lose writes). */
  embeddedDatabase(): SharedPglite {
    if (this.databaseUrl) throw new Error('DATABASE_URL is set: the services use PostgreSQL, not the embedded database');
    if (!this.pglite || this.pglite.closed) {
      this.pglite = openSharedPglite(this.data.kind === 'directory' ? path.join(this.data.path, 'pg') : `memory://${this.data.name}`);
    }
    return this.pglite;
  }

  /** Image files of this process when they are kept in memory: the media service writes them, the gateway serves them. */
  memoryStorage(): MemoryStorage {
    this.memoryObjects ??= new MemoryStorage();
    return this.memoryObjects;
  }

  /** For logs: the mode and where things are, never a password. */
  describe(): Record<string, unknown> {
    return {
      mode: this.mode,
      data: this.data.kind === 'directory' ? this.data.path : `memory://${this.data.name}`,
      database: this.databaseUrl ? 'postgresql' : 'pglite',
      bus: this.natsUrl ? 'nats' : 'in-process',
      objects: this.s3 ? 's3' : this.data.kind,
    };
  }
}

const MEMORY_PREFIX = 'memory://';

function readNatsSecurity(env: NodeJS.ProcessEnv, natsUrl: string): NatsSecurity {
  natsCredentialsEnvironment.parse(env);
  const passwords: NatsSecurity['passwords'] = {};
  for (const principal of BUS_PRINCIPALS) {
    const password = env[natsPasswordVariable(principal)]?.trim();
    if (password) passwords[principal] = password;
  }
  return { passwords, tls: readNatsTls(env, natsUrl), requireAuthentication: env.NODE_ENV?.trim() === 'production' };
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
  const file = env[name]?.trim();
  if (!file) return undefined;
  if (!fs.existsSync(file)) throw new Error(`${name} points to ${file}, which does not exist`);
  return path.resolve(file);
}
