// Start-up refuses clearly when its port is taken, instead of running with a server that is not listening.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, startPlatform } from '@omni/platform';
import { MODULES } from '@omni/server/src/modules';

let blocker: Server;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omni-startup-'));
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

it('names the service and the address when the HTTP port is already in use', async () => {
  const { port } = blocker.address() as { port: number };
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      OMNI_RANDOM_PORTS: 'true',
      BIND_HOST: '127.0.0.1',
      HTTP_PORT: String(port),
    },
    ['--services=cms,gateway'],
  );
  await expect(startPlatform(config, MODULES)).rejects.toThrow(
    new RegExp(`gateway cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
  );
});
