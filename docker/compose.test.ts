import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { renderNatsServerConfig } from '@app/kit';
import { BUS_PRINCIPALS, type BusPrincipal } from '@app/schema';
import { parse } from 'yaml';

/**
 * Offline checks of the container setup (no Docker engine needed): the compose file passes dclint with no
 * warnings, wires every process to its infrastructure, and the Dockerfile installs every workspace.
 */
const root = path.resolve(__dirname, '..');
const composeFile = path.join(root, 'docker', 'compose.yml');
const dockerfile = fs.readFileSync(path.join(root, 'docker', 'Dockerfile'), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  ports?: (string | number | Record<string, unknown>)[];
  volumes?: (string | Record<string, unknown>)[];
}

interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const compose = parse(fs.readFileSync(composeFile, 'utf8'), { merge: true }) as ComposeFile;
const services = compose.services;

const APP_SERVICES = ['gateway', 'identity', 'chat', 'media'] as const;
const BACKEND_SERVICES = ['identity', 'chat', 'media'] as const;
const S3_VARIABLES = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];

const environmentOf = (name: string): Record<string, string> => {
  const environment = services[name]?.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(environment.map((entry) => [entry.split('=')[0]!, entry.slice(entry.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, String(value ?? '')]));
};
const commandOf = (name: string): string[] => {
  const command = services[name]?.command ?? [];
  return Array.isArray(command) ? command : command.split(/\s+/);
};
const dependenciesOf = (name: string): Record<string, string> => {
  const dependsOn = services[name]?.depends_on ?? {};
  if (Array.isArray(dependsOn)) return Object.fromEntries(dependsOn.map((dependency) => [dependency, 'service_started']));
  return Object.fromEntries(Object.entries(dependsOn).map(([dependency, { condition }]) => [dependency, condition]));
};
const imageOf = (name: string): string => services[name]?.image ?? '';
const s3ServerName = (): string | undefined =>
  Object.keys(services).find((name) => /minio|s3/i.test(imageOf(name)) && name !== 'minio-init');

describe('docker/compose.yml', () => {
  it('passes dclint with no errors and no warnings', () => {
    const bin = path.join(path.dirname(require.resolve('dclint/package.json')), 'bin', 'dclint.cjs');
    const result = spawnSync(process.execPath, [bin, 'docker/compose.yml', '--max-warnings', '0', '--no-color'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect({ status: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({ status: 0, output: '' });
  });

  it('runs PostgreSQL 15, NATS 2.10 with JetStream on a volume, and an S3-compatible server with its bucket', () => {
    expect(imageOf('postgres')).toMatch(/^postgres:15/);
    expect(imageOf('nats')).toMatch(/^nats:2\.10/);
    const natsCommand = commandOf('nats');
    expect(natsCommand.includes('-js') || natsCommand.includes('--jetstream')).toBe(true);
    expect(services.nats?.volumes?.length).toBeGreaterThan(0);
    const s3 = s3ServerName();
    expect(s3).toBeDefined();
    const bucketInit = Object.keys(services).find((name) => imageOf(name).startsWith('minio/mc:'));
    expect(bucketInit).toBeDefined();
    expect(commandOf(bucketInit!).join(' ')).toContain('mc mb');
    expect(dependenciesOf(bucketInit!)).toEqual({ [s3!]: 'service_healthy' });
  });

  it('pins every image to an explicit version and declares the named volumes it mounts', () => {
    for (const [name, service] of Object.entries(services)) {
      expect({ name, image: service.image }).toEqual({ name, image: expect.stringMatching(/^[\w./-]+:[\w.-]+$/) });
    }
    const mounted = Object.values(services).flatMap((service) =>
      (service.volumes ?? []).filter((volume): volume is string => typeof volume === 'string').map((volume) => volume.split(':')[0]!),
    );
    for (const volume of mounted.filter((source) => !source.startsWith('.') && !source.startsWith('/'))) {
      expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    }
  });

  it.each(APP_SERVICES)('%s runs its role from the app image with NATS_URL and a /readyz healthcheck', (name) => {
    const service = services[name];
    expect(service).toBeDefined();
    expect(service!.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile' });
    expect(imageOf(name)).toBe(imageOf('gateway'));
    const script = name === 'gateway' ? 'gateway/dist/main.js' : `services/${name}/dist/main.js`;
    expect(commandOf(name)).toEqual(['node', script]);
    expect(environmentOf(name).NATS_URL).toBe('nats://nats:4222');
    expect(service!.healthcheck?.test).toEqual(['CMD', 'node', 'docker/healthcheck.js']);
    expect(dependenciesOf(name).nats).toBe('service_healthy');
  });

  it.each(BACKEND_SERVICES)('%s gets DATABASE_URL, the S3_* variables and a health port, and waits for its dependencies', (name) => {
    const environment = environmentOf(name);
    expect(environment.DATABASE_URL).toMatch(/^postgres(ql)?:\/\/[^@]+@postgres:5432\/\w+$/);
    for (const variable of S3_VARIABLES)
      expect({ variable, value: environment[variable] }).toEqual({ variable, value: expect.any(String) });
    expect(environment.S3_ENDPOINT).toBe(`http://${s3ServerName()}:9000`);
    expect(environment.HEALTH_PORT).toMatch(/^\d+$/);
    expect(environment.HOST).toBe('0.0.0.0');
    expect(dependenciesOf(name)).toEqual({
      'minio-init': 'service_completed_successfully',
      nats: 'service_healthy',
      postgres: 'service_healthy',
    });
  });

  it('publishes the gateway on port 3000, listening on all interfaces once the services are healthy', () => {
    const environment = environmentOf('gateway');
    expect(environment.HOST).toBe('0.0.0.0');
    expect(environment.PORT).toBe('3000');
    // The gateway's one use of the database: /graphql rate-limit counters shared by every gateway.
    expect(environment.DATABASE_URL).toBe('postgres://platform:${POSTGRES_PASSWORD:-platform-dev}@postgres:5432/platform');
    expect(services.gateway?.ports).toEqual(['127.0.0.1:3000:3000']);
    expect(dependenciesOf('gateway')).toMatchObject({
      identity: 'service_healthy',
      chat: 'service_healthy',
      media: 'service_healthy',
      postgres: 'service_healthy',
    });
  });

  it('runs NATS with the generated users and permissions, up to date with BUS_PERMISSIONS', () => {
    const natsCommand = commandOf('nats');
    const configPath = natsCommand[natsCommand.indexOf('-c') + 1];
    expect(services.nats?.volumes).toContain(`./nats.conf:${configPath}:ro`);
    const committed = fs.readFileSync(path.join(root, 'docker', 'nats.conf'), 'utf8');
    expect({ upToDate: committed === renderNatsServerConfig(), hint: 'run `npm run nats:config`' }).toEqual({
      upToDate: true,
      hint: 'run `npm run nats:config`',
    });
  });

  it.each(BUS_PRINCIPALS)('gives %s its own NATS password, shared with NATS and with no other process', (principal: BusPrincipal) => {
    const variable = `NATS_${principal.toUpperCase()}_PASSWORD`;
    const password = environmentOf('nats')[variable];
    expect(password).toMatch(new RegExp(`^\\$\\{${variable}:-[^}]+\\}$`));
    expect(environmentOf(principal)[variable]).toBe(password);
    for (const other of APP_SERVICES.filter((name) => name !== principal)) expect(environmentOf(other)[variable]).toBeUndefined();
  });

  it('gives every long-running service a healthcheck', () => {
    const longRunning = Object.keys(services).filter((name) => name !== 'minio-init');
    for (const name of longRunning) expect({ name, test: services[name]?.healthcheck?.test }).toEqual({ name, test: expect.anything() });
  });
});

describe('docker/Dockerfile', () => {
  const workspaces = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;

  it('installs from every workspace manifest before copying the sources', () => {
    const firstFullCopy = dockerfile.indexOf('COPY . .');
    for (const workspace of workspaces) {
      const manifestCopy = dockerfile.indexOf(`COPY ${workspace}/package.json ${workspace}/`);
      expect({ workspace, copied: manifestCopy >= 0 && manifestCopy < firstFullCopy }).toEqual({ workspace, copied: true });
    }
  });

  it('builds on Node 20 bookworm-slim, builds back end and web, and runs as a non-root user', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(dockerfile).toContain('npx tsc -b services/embedded');
    expect(dockerfile).toContain('npm run build -w web');
    const lastStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(lastStage).toMatch(/^USER node$/m);
    expect(lastStage).toMatch(/^CMD \["node", "services\/embedded\/dist\/main\.js"\]$/m);
    expect(lastStage).toMatch(/HOST=0\.0\.0\.0/);
  });

  it('ships the healthcheck script it refers to', () => {
    expect(fs.existsSync(path.join(root, 'docker', 'healthcheck.js'))).toBe(true);
  });
});
