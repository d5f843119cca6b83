import net from 'node:net';

/** A TCP proxy the test can cut and restore, standing in for a database that goes away and comes back. */
export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones, as a server that went down. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port (nothing to do when it already does). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return { port, cut: stop, restore: async () => (server.listening ? undefined : listen(port)), close: stop };
}
