// A TCP proxy in front of an engine, so a contract case can take the engine away from one client (cut:
// connections refused and open ones dropped; hang: connections accepted and never answered) without
// stopping the engine every other suite shares.
import { createServer, type Server, Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Like the engine going down: open connections are dropped and new ones refused. */
  cut(): Promise<void>;
  /** Like the engine stuck: new connections are accepted and never answered. */
  hang(): Promise<void>;
  /** Like the engine back: forwarding again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const listen = (server: Server, port = 0) =>
    new Promise<number>((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        done(typeof address === 'object' && address ? address.port : 0);
      });
    });
  const shut = (server: Server) => new Promise<void>((done) => server.close(() => done()));
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };

  const forwarding = () =>
    createServer((client) => {
      track(client);
      const upstream = new Socket();
      track(upstream);
      upstream.connect(target.port, target.host);
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  let server = forwarding();
  const port = await listen(server);

  return {
    port,
    async cut() {
      dropAll();
      await shut(server);
    },
    async hang() {
      dropAll();
      await shut(server);
      server = createServer(track);
      await listen(server, port);
    },
    async restore() {
      dropAll();
      if (server.listening) await shut(server);
      server = forwarding();
      await listen(server, port);
    },
    async close() {
      dropAll();
      if (server.listening) await shut(server);
    },
  };
}
