// Serves a local object store's router on an ephemeral loopback port. The port is only known after
// listen(), and the store needs it for its public base URL, so the app delegates to a router set later.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

export interface EphemeralServer {
  baseUrl: string;
  mount(router: express.Router): void;
  close(): Promise<void>;
}

export async function startEphemeralServer(): Promise<EphemeralServer> {
  const app = express();
  let mounted: express.Router | undefined;
  app.use((req, res, next) => (mounted ? mounted(req, res, next) : next()));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    mount(router) {
      mounted = router;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
