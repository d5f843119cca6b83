import { EventEmitter } from 'node:events';
import { hashSessionToken } from '@app/kit';
import type { User } from '@app/schema';
import { LiveSessions, SESSION_ENDED_CLOSE_CODE } from './live-sessions';

class FakeSocket extends EventEmitter {
  closedWith: number | null = null;
  close(code: number) {
    this.closedWith = code;
    this.emit('close');
  }
}

const member = (id: string) => ({ id }) as User;

describe('LiveSessions', () => {
  let answers: Map<string, User | null | Error>;
  let sessions: LiveSessions;
  beforeEach(() => {
    answers = new Map();
    // A long interval: these tests call check() themselves.
    sessions = new LiveSessions(async (token) => {
      const answer = answers.get(token);
      if (answer instanceof Error) throw answer;
      return answer ?? null;
    }, 3_600_000);
  });
  afterEach(() => sessions.close());

  it("a sign-out closes that session's sockets at once, and no one else's", () => {
    const [a1, a2, b] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    sessions.add('token-a', 'user-a', a1);
    sessions.add('token-a', 'user-a', a2);
    sessions.add('token-b', 'user-b', b);
    sessions.end(hashSessionToken('token-a'));
    expect([a1.closedWith, a2.closedWith, b.closedWith]).toEqual([SESSION_ENDED_CLOSE_CODE, SESSION_ENDED_CLOSE_CODE, null]);
    expect(sessions.openSockets).toBe(1);
  });

  it('a check closes sockets whose session has ended or now belongs to someone else, and keeps them when identity cannot answer', async () => {
    const [ended, reassigned, unreachable, fine] = [new FakeSocket(), new FakeSocket(), new FakeSocket(), new FakeSocket()];
    sessions.add('ended', 'user-1', ended);
    sessions.add('reassigned', 'user-2', reassigned);
    sessions.add('unreachable', 'user-3', unreachable);
    sessions.add('fine', 'user-4', fine);
    answers.set('ended', null);
    answers.set('reassigned', member('someone-else'));
    answers.set('unreachable', new Error('identity is down'));
    answers.set('fine', member('user-4'));
    await sessions.check();
    expect([ended, reassigned, unreachable, fine].map((socket) => socket.closedWith)).toEqual([
      SESSION_ENDED_CLOSE_CODE,
      SESSION_ENDED_CLOSE_CODE,
      null,
      null,
    ]);
    expect(sessions.openSockets).toBe(2);
  });

  it('forgets a socket once it closes on its own', async () => {
    const socket = new FakeSocket();
    sessions.add('token', 'user', socket);
    socket.emit('close');
    expect(sessions.openSockets).toBe(0);
    answers.set('token', null);
    await sessions.check();
    expect(socket.closedWith).toBeNull();
  });
});
