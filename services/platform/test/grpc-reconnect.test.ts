// A peer that went away and came back on its address (a killed service started again, a pod replaced) is
// reached again within a couple of seconds. gRPC's default reconnect backoff grows to 120 s, and every
// call meanwhile fails at once with UNAVAILABLE although the peer is back: the cluster's fault test saw the
// gateway answer 503 for half a minute after catalog was ready again.
import { health } from '@omni/proto';
import { createGrpcClient } from '../src/grpc/client';
import { createGrpcServer, type GrpcServerHandle } from '../src/grpc/server';
import { createLogger } from '../src/logging/logger';

const logger = createLogger('test');

async function serve(port: number): Promise<{ server: GrpcServerHandle; port: number }> {
  const server = createGrpcServer('test', logger);
  const bound = await server.listen('127.0.0.1', port);
  server.setServing(true);
  return { server, port: bound };
}

it('calls a peer again within seconds once it is back after a long absence', async () => {
  const first = await serve(0);
  const client = createGrpcClient(health.HealthService, `127.0.0.1:${first.port}`, { deadlineMs: 1000 });
  try {
    await client.check({ service: '' });
    await first.server.stop(100);
    // Down for 12 s, with calls failing all along: the backoff would have grown past 10 s by default.
    const downUntil = Date.now() + 12_000;
    while (Date.now() < downUntil) {
      await expect(client.check({ service: '' })).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 500));
    }
    const again = await serve(first.port);
    try {
      const back = Date.now();
      for (;;) {
        const ok = await client.check({ service: '' }).then(
          () => true,
          () => false,
        );
        if (ok) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(Date.now() - back).toBeLessThan(3000);
    } finally {
      await again.server.stop(100);
    }
  } finally {
    client.close();
  }
}, 30_000);
