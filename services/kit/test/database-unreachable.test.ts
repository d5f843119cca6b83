import net from 'node:net';
import { Infra } from '../src/config';
import { Database } from '../src/db/database';
import { isDatabaseUnreachable } from '../src/db/database-errors';

jest.setTimeout(30_000);

describe('a PostgreSQL server that stopped answering', () => {
  let server: net.Server;
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    // Accepts connections and never says a word, as a server that hangs or a network that drops packets.
    server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails the connection as unreachable instead of waiting on it forever', async () => {
    const { port } = server.address() as net.AddressInfo;
    const opening = Database.open(
      Infra.from({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, natsUrl: null, dataDir: 'memory://stalled' }),
      { schema: 'stalled', entities: [], migrations: [] },
    );
    const failure = await opening.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).not.toBeNull();
    expect(isDatabaseUnreachable(failure)).toBe(true);
  });
});
