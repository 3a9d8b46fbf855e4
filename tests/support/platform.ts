// Starts the whole platform in this test process, on random ports and a fresh data folder, exactly as
// `npm start` wires it (same modules, same adapters, gRPC over loopback). Returns helpers to call it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Platform, startPlatform } from '@omni/platform';
import { MODULES } from '@omni/server/src/modules';

export interface TestPlatform extends Platform {
  dataDir: string;
  /** Stops and deletes the data folder (unless `keepData`). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export async function startTestPlatform(
  options: { dataDir?: string; env?: Record<string, string>; services?: string } = {},
): Promise<TestPlatform> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'omni-test-'));
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      OMNI_RANDOM_PORTS: 'true',
      BIND_HOST: '127.0.0.1',
      OMNI_SERVICES: options.services ?? 'all',
      PUBLIC_URL: 'http://localhost:8080',
      ...options.env,
    },
    [],
  );
  const platform = await startPlatform(config, MODULES);
  // PUBLIC_URL matters for the issuer claim; point it at the port we really got.
  return {
    ...platform,
    dataDir,
    async close({ keepData = false } = {}) {
      await platform.stop();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
