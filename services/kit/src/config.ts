import path from 'node:path';

/** Reads infrastructure settings; the embedded defaults need nothing installed. */
export interface InfraConfig {
  dataDir: string;
  databaseUrl: string | null;
  natsUrl: string | null;
}

export function readInfraConfig(env: NodeJS.ProcessEnv = process.env): InfraConfig {
  return {
    dataDir: resolveDataDir(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || null,
    natsUrl: env.NATS_URL || null,
  };
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
