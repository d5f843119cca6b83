import type { Caller, LiveServices } from '../operations/caller';
import type { OperatorConsole } from '../operator/operator-console';

/** Per-request state every resolver sees: who calls, and the service clients; transport details (cookies) only through `session`. */
export interface GatewayContext extends Caller, LiveServices {
  /** Admins' view of the running platform (instances, the event stream). */
  operator: OperatorConsole;
}

/** Who calls a GraphQL operation (HTTP or WebSocket): the context already holds it, read once per request. */
export const callerOf = ({ user, scopes, isOperator, clientIp, meta, session }: GatewayContext): Caller => ({
  user,
  scopes,
  isOperator,
  clientIp,
  meta,
  session,
});
