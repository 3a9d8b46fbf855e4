// The one binary. `--services=all` (the default, what `npm start` runs) starts every service in this
// process on the embedded adapters; `--services=cms` (or OMNI_SERVICES=cms) starts one, as each
// Kubernetes pod does. SIGTERM/SIGINT drain and stop in order; a second signal forces the exit.
//
// Built into the one entry dist/omni/main.cjs (scripts/build-server.mjs) that `npm start`, the image and
// the chart run. Tracing is registered by the first import, before anything it instruments is loaded, so
// every way of starting Omni traces the same way (no `--import` flag to forget, none for workers to inherit).
import '@omni/platform/src/telemetry/register';
import {
  ConfigError,
  createLogger,
  loadConfig,
  type Platform,
  startPlatform,
  stopTelemetry,
} from '@omni/platform';
import { printBanner } from './banner';
import { MODULES } from './modules';

async function main(): Promise<void> {
  // Stack traces name the TypeScript sources, not the bundle's lines.
  process.setSourceMapsEnabled(true);
  const logger = createLogger('omni');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }

  const started = Date.now();
  let platform: Platform;
  try {
    platform = await startPlatform(config, MODULES, { logger });
  } catch (err) {
    logger.fatal({ err }, 'start-up failed');
    console.error(`\nOmni could not start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  printBanner(platform, Date.now() - started);

  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) process.exit(130);
    logger.info({ signal }, 'shutting down');
    // Spans are exported in batches: the last requests' would be lost unless sent before the exit.
    platform
      .stop()
      .then(() => stopTelemetry())
      .then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
