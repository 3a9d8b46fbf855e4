// A free TCP port on loopback, for a platform a test or bench starts. Its own small module so that the
// journeys' harness, which must not load the platform kit, shares it with tests/support/process.ts.
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}
