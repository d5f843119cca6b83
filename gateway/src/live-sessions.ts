import { hashSessionToken, logger } from '@app/kit';
import type { User } from '@app/schema';

/** What a session check needs of a WebSocket: `ws`'s close and its close event. */
export interface SessionSocket {
  close(code: number, reason: string): void;
  once(event: 'close', listener: () => void): unknown;
}

/** graphql-ws's code for an unauthorised connection; clients treat it as final. */
export const SESSION_ENDED_CLOSE_CODE = 4401;

/**
 * The signed-in WebSockets of this gateway, by the SHA-256 of their session token. A socket's session is
 * checked when it connects and then every `checkEveryMs`; a session that has ended (idle too long, past its
 * lifetime) closes its sockets. A sign-out on any gateway closes them at once (identity announces it).
 */
export class LiveSessions {
  private readonly sessions = new Map<string, { token: string; userId: string; sockets: Set<SessionSocket> }>();
  private readonly socketsPerMember = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private checking = false;

  constructor(
    private readonly resolve: (token: string) => Promise<User | null>,
    checkEveryMs: number,
    private readonly maxSocketsPerMember = Number.POSITIVE_INFINITY,
  ) {
    this.timer = setInterval(() => void this.check(), checkEveryMs);
    this.timer.unref();
  }

  /** Tracks a member's socket; false (and nothing tracked) when the member already holds as many as allowed. */
  add(token: string, userId: string, socket: SessionSocket): boolean {
    const held = this.socketsPerMember.get(userId) ?? 0;
    if (held >= this.maxSocketsPerMember) return false;
    this.socketsPerMember.set(userId, held + 1);
    const key = hashSessionToken(token);
    const session = this.sessions.get(key) ?? { token, userId, sockets: new Set<SessionSocket>() };
    session.sockets.add(socket);
    this.sessions.set(key, session);
    socket.once('close', () => {
      const left = (this.socketsPerMember.get(userId) ?? 1) - 1;
      if (left > 0) this.socketsPerMember.set(userId, left);
      else this.socketsPerMember.delete(userId);
      session.sockets.delete(socket);
      if (session.sockets.size === 0 && this.sessions.get(key) === session) this.sessions.delete(key);
    });
    return true;
  }

  /** Closes every socket of a session that has just been signed out, given the SHA-256 of its token. */
  end(tokenHash: string): void {
    const session = this.sessions.get(tokenHash);
    if (!session) return;
    this.sessions.delete(tokenHash);
    for (const socket of session.sockets) socket.close(SESSION_ENDED_CLOSE_CODE, 'Session ended');
  }

  get openSockets(): number {
    let count = 0;
    for (const session of this.sessions.values()) count += session.sockets.size;
    return count;
  }

  /** One identity call per session, not per socket; identity unreachable keeps the sockets until the next check. */
  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      for (const [key, session] of [...this.sessions]) {
        const user = await this.resolve(session.token).catch((error: unknown) => {
          logger.warn({ err: error }, 'live session check failed; will retry');
          return undefined;
        });
        if (user === null || (user && user.id !== session.userId)) this.end(key);
      }
    } finally {
      this.checking = false;
    }
  }

  close(): void {
    clearInterval(this.timer);
  }
}
