import { AppError, type RequestMeta, type Role, type TokenScope, type User, hasRole } from '@app/schema';
import type { AccountDataClient } from '../account-data/account-data.client';
import type { ChatClient } from '../chat-client';
import type { IdentityClient } from '../identity-client';
import type { LiveHub } from '../live-hub';
import type { MediaClient } from '../media-client';
import type { ContentAccess } from '../moderation/content-access';
import type { ModerationTargets } from '../moderation/moderation-targets';
import type { StoryClient } from '../stories/story-client';

/** Who calls an operation, whatever the transport: built once per request by `callerOf` (GraphQL and REST each have one). */
export interface Caller {
  user: User | null;
  /** An access token's scopes; null for a browser session, the operator token or a visitor. */
  scopes: TokenScope[] | null;
  isOperator: boolean;
  clientIp: string;
  meta: RequestMeta;
  session: {
    token: string | null;
    /** Sets the session cookie (HTTP only; a no-op over WebSocket). */
    start(token: string, expiresAt: Date): void;
    end(): void;
  };
}

/** The service clients operations call; the GraphQL context holds them all, the REST router all but `live`. */
export interface Services {
  identity: IdentityClient;
  chat: ChatClient;
  stories: StoryClient;
  media: MediaClient;
  access: ContentAccess;
  targets: ModerationTargets;
  accountData: AccountDataClient;
}
export type LiveServices = Services & { live: LiveHub };

/** The one auth check: a signed-in member, or UNAUTHENTICATED. */
export function member(caller: Caller): User {
  if (!caller.user) throw new AppError('UNAUTHENTICATED', 'Unauthorized');
  return caller.user;
}

/** A member holding `needed` (or a higher role); the session cache may lag a grant by its few seconds. */
export function role(caller: Caller, needed: Role): User {
  const user = member(caller);
  if (!hasRole(user.role, needed)) throw new AppError('FORBIDDEN', `This needs the ${needed} role.`);
  return user;
}

/** The platform operator (Authorization: Bearer OPERATOR_TOKEN), who is no member. */
export function operator(caller: Caller): void {
  if (!caller.isOperator) throw new AppError('FORBIDDEN', 'Operator access required');
}
