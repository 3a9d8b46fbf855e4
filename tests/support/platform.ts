// Starts the whole platform in this test process, on random ports and a fresh data folder, exactly as
// `npm start` wires it (same modules, same adapters, gRPC over loopback). Returns helpers to call it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Platform, startPlatform } from '@omni/platform';
import { MODULES } from '@omni/server/src/modules';
import { freePort } from './process';
import { setDefaultIssuer } from './tokens';

export interface TestPlatform extends Platform {
  dataDir: string;
  /** Stops and deletes the data folder (unless `keepData`). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

interface StartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  services?: string;
  /** Modules to use instead of the standard ones (a service built with test options). */
  modules?: Partial<typeof MODULES>;
}

export async function startTestPlatform(options: StartOptions = {}): Promise<TestPlatform> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'omni-test-'));
  // A port found free can be taken by a parallel test file before we bind it: try again with another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), dataDir, options);
    } catch (err) {
      if (attempt >= 3 || !/EADDRINUSE/.test((err as Error).message)) throw err;
    }
  }
}

async function startOn(port: number, dataDir: string, options: StartOptions): Promise<TestPlatform> {
  // Signed upload URLs, public object URLs and the issuer are absolute on PUBLIC_URL, so it must name the
  // port we really listen on ('localhost', as a browser sees the page, not 127.0.0.1).
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      OMNI_RANDOM_PORTS: 'true',
      BIND_HOST: '127.0.0.1',
      OMNI_SERVICES: options.services ?? 'all',
      HTTP_PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      ...options.env,
    },
    [],
  );
  const platform = await startPlatform(config, { ...MODULES, ...options.modules });
  setDefaultIssuer(`${config.publicUrl}/realms/omni`);
  return {
    ...platform,
    dataDir,
    async close({ keepData = false } = {}) {
      await platform.stop();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
