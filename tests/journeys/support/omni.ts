// What every way of starting Omni for the journeys and benches shares: the Omni a test drives (whether
// `npm start`'s one process, omni-process.ts, or `npm run cluster`'s many, cluster-process.ts), the web
// app's build both need, and the polling helper every step uses.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '../../..');
export const artifacts = join(repoRoot, 'tests/.artifacts');

export interface OmniOptions {
  /** Names the log file in tests/.artifacts. */
  name: string;
  /** Settings an operator could put in the environment (e.g. STORE_SIMULATOR_DELAY_MS). */
  env?: Record<string, string>;
  /** Reuse a data folder (a bench's); default: a fresh temporary one, removed by stop(). */
  dataDir?: string;
  /** Print the platform's output as it comes (benches); default: kept for failures only. */
  echo?: boolean;
}

export interface Omni {
  /** What a browser opens: http://localhost:<port>. */
  readonly url: string;
  readonly dataDir: string;
  /** Where one service keeps its files (the delivery simulator's stores): dataDir, or its own on a cluster. */
  serviceDataDir(service: string): string;
  readonly admin: { email: string; password: string };
  /** The process serving it (the one process of `npm start`; a cluster has many: see cluster-process). */
  readonly pid?: number;
  /** Everything the process printed since the first start (all runs). */
  output(): string;
  /** kill -9 of start.mjs and the platform it started; resolves once both are gone. */
  kill9(): Promise<void>;
  /** Starts again on the same data folder and port, and waits until it is ready. */
  restart(): Promise<void>;
  /** SIGTERM (what Ctrl-C sends start.mjs), wait for the exit, write the log, remove a fresh data folder. */
  stop(): Promise<void>;
  /** Rethrows `err` with the end of the platform's output appended: what a failing journey reports. */
  explain(err: unknown): never;
}

/** Polls `read` until it returns something other than undefined; the failure names `what`. */
export async function eventually<T>(
  read: () => Promise<T | undefined> | T | undefined,
  what: string | (() => string),
  ms: number,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await Promise.resolve()
      .then(read)
      .catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${ms} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const BUNDLES = ['shell', 'marketing', 'dashboard', 'admin', 'finder'];
let built = false;
/** `--no-build` skips the web app: build it here, once per test file (it rebuilds only what changed). */
export function buildWebApp(): void {
  if (built) return;
  const result = spawnSync(process.execPath, ['scripts/build-frontends.mjs'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    const report = `${result.stdout}\n${result.stderr}`.slice(-4000);
    // As start.mjs does: an earlier build still serves (npm test reports the failed build as its own
    // step); with no build at all there is no web app to walk through.
    const missing = BUNDLES.filter((b) => !existsSync(join(repoRoot, 'frontends', b, 'dist', '.build-hash')));
    if (missing.length > 0) throw new Error(`The web app did not build (${missing.join(', ')}):\n${report}`);
    process.stderr.write(`The web app did not build; the journeys use its last build.\n${report}\n`);
  }
  built = true;
}
