import type { BusPrincipal } from '@app/schema';
import { AuthorizationError, type ConnectionOptions, type NatsConnection, connect } from '@nats-io/transport-node';
import type { NatsSecurity } from '../config';
import { natsPasswordVariable } from '../env/kit.environment';
import { logger } from '../logger';
import { inboxPrefixOf } from './nats-permissions';

export interface NatsConnectOptions {
  /** Who this connection acts for: its password, its private inbox prefix. */
  principal?: BusPrincipal;
  security?: NatsSecurity;
}

let warnedAboutOpenServer = false;

/**
 * Connects as a principal, with its password and TLS when configured. A refused sign-in ends here with
 * a sentence naming the variable to check; a server that lets anyone in is refused in production.
 */
export async function openNatsConnection(url: string, name: string, options: NatsConnectOptions = {}): Promise<NatsConnection> {
  const { principal, security } = options;
  let nc: NatsConnection;
  try {
    nc = await connect(connectionOptions(url, name, options));
  } catch (error) {
    throw describeConnectFailure(error, name, principal);
  }
  if (nc.info?.auth_required) return nc;
  if (security?.requireAuthentication) {
    await nc.close();
    throw new Error(
      'NATS lets clients in without credentials, so passwords and session tokens would cross an open bus: ' +
        'run it with the users from `npm run nats:config` (see "Bus security" in the README)',
    );
  }
  if (!warnedAboutOpenServer) {
    warnedAboutOpenServer = true;
    logger.warn('NATS lets clients in without credentials: anyone who reaches it can read and send anything on the bus');
  }
  return nc;
}

function connectionOptions(url: string, name: string, { principal, security }: NatsConnectOptions): ConnectionOptions {
  const password = principal ? security?.passwords[principal] : undefined;
  return {
    servers: url.split(',').map((server) => server.trim()),
    name,
    maxReconnectAttempts: -1,
    ...(principal ? { inboxPrefix: inboxPrefixOf(principal) } : {}),
    ...(principal && password ? { user: principal, pass: password } : {}),
    ...(security?.tls ? { tls: { ...security.tls } } : {}),
  };
}

function describeConnectFailure(error: unknown, name: string, principal: BusPrincipal | undefined): Error {
  const refused = error instanceof AuthorizationError || (error instanceof Error && /authorization violation/i.test(error.message));
  if (!refused) return error instanceof Error ? error : new Error(String(error));
  const check = principal ? `check ${natsPasswordVariable(principal)}` : 'connect with a principal and its password';
  return new Error(`NATS refused the credentials of ${principal ?? name} (authorization violation): ${check}`, { cause: error });
}
