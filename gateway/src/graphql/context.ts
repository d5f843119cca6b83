import type { RequestMeta, User } from '@app/schema';
import { AppError } from '@app/schema';
import type { ChatClient } from '../chat-client';
import type { IdentityClient } from '../identity-client';
import type { LiveHub } from '../live-hub';
import type { MediaClient } from '../media-client';

/** Per-request state every resolver sees; transport details (cookies) are reached only through `session`. */
export interface GatewayContext {
  user: User | null;
  isOperator: boolean;
  clientIp: string;
  meta: RequestMeta;
  identity: IdentityClient;
  chat: ChatClient;
  media: MediaClient;
  live: LiveHub;
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

export function requireOperator(context: GatewayContext): void {
  if (!context.isOperator) throw new AppError('FORBIDDEN', 'Operator access required');
}
