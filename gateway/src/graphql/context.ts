import type { ContentRating, RequestMeta, Role, TokenScope, User } from '@app/schema';
import { AppError, hasRole } from '@app/schema';
import type { ChatClient } from '../chat-client';
import type { IdentityClient } from '../identity-client';
import type { LiveHub } from '../live-hub';
import type { MediaClient } from '../media-client';
import type { ContentAccess } from '../moderation/content-access';
import type { ModerationTargets } from '../moderation/moderation-targets';
import type { OperatorConsole } from '../operator/operator-console';

/** Per-request state every resolver sees; transport details (cookies) are reached only through `session`. */
export interface GatewayContext {
  user: User | null;
  /** An access token's scopes; null for a browser session, the operator token or a visitor. */
  scopes: TokenScope[] | null;
  isOperator: boolean;
  clientIp: string;
  meta: RequestMeta;
  identity: IdentityClient;
  chat: ChatClient;
  media: MediaClient;
  live: LiveHub;
  access: ContentAccess;
  targets: ModerationTargets;
  /** Admins' view of the running platform (instances, the event stream). */
  operator: OperatorConsole;
  session: {
    token: string | null;
    /** Sets the session cookie (HTTP only; a no-op over WebSocket). */
    start(token: string, expiresAt: Date): void;
    end(): void;
  };
}

export function requireUser(context: GatewayContext): User {
  if (!context.user) throw new AppError('UNAUTHENTICATED', 'Unauthorized');
  return context.user;
}

/** Moderation needs the role on the account; the session cache may lag a grant by its few seconds. */
export function requireRole(context: GatewayContext, role: Role): User {
  const user = requireUser(context);
  if (!hasRole(user.role, role)) throw new AppError('FORBIDDEN', `This needs the ${role} role.`);
  return user;
}

/** The ratings the signed-in member (or visitor) sees. */
export const viewerRatings = (context: GatewayContext): ContentRating[] => context.access.ratingsFor(context.user);

export function requireOperator(context: GatewayContext): void {
  if (!context.isOperator) throw new AppError('FORBIDDEN', 'Operator access required');
}
