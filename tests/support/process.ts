// Runs the platform as a separate process through the one entry `npm start` and the image run
// (dist/omni/main.cjs, built from the sources when they changed), on a
// free port and a fresh data folder, with the embedded issuer's key created up front so tests and
// benchmarks can sign tokens for it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { activeSigningKey } from '@omni/service-identity/src/providers/identity/embedded/signing-keys';
import { freePort } from './ports';
import { builtServerEntry } from './server-entry';
import { signTestToken, type TokenOptions } from './tokens';

export { freePort } from './ports';

export const repoRoot = resolve(__dirname, '../..');

export async function waitFor<T>(
  fn: () => Promise<T | undefined> | T | undefined,
  ms: number,
  what: string,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await Promise.resolve(fn()).catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface PlatformProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  token(options?: TokenOptions): Promise<string>;
  /** SIGTERM and wait for exit (graceful), or SIGKILL when `hard`. */
  stop(options?: { hard?: boolean; keepData?: boolean }): Promise<number | null>;
}

export async function startPlatformProcess(
  options: { dataDir?: string; env?: Record<string, string>; port?: number; args?: string[] } = {},
): Promise<PlatformProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'omni-proc-'));
  const port = options.port ?? (await freePort());
  const url = `http://localhost:${port}`;

  // Opened only to read the signing key: its open/close lines would only clutter a benchmark's output.
  const identity = createSqliteDocumentStore({
    dataDir: join(dataDir, 'identity'),
    logger: createLogger('test-tokens').child({}, { level: 'warn' }),
  });
  await identity.ready();
  const key = await activeSigningKey(identity);
  await identity.close();

  const child = spawn(
    process.execPath,
    [
      // PROF_DIR=<folder> writes a V8 CPU profile of the platform there when it exits (e.g. under a bench).
      ...(process.env.PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF_DIR}`] : []),
      builtServerEntry(),
      ...(options.args ?? []),
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        OMNI_RANDOM_PORTS: 'true',
        HTTP_PORT: String(port),
        PUBLIC_URL: url,
        LOG_LEVEL: 'warn',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));

  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`platform exited:\n${output}`);
      return (await fetch(`${url}/healthz`)).ok ? true : undefined;
    },
    30_000,
    `start-up:\n${output}`,
  ).catch((err) => {
    child.kill('SIGKILL');
    throw err;
  });

  return {
    url,
    dataDir,
    child,
    output: () => output,
    token: (o) => signTestToken(key, { issuer: `${url}/realms/omni`, ...o }),
    async stop({ hard = false, keepData = false } = {}) {
      if (child.exitCode === null) child.kill(hard ? 'SIGKILL' : 'SIGTERM');
      const code = await exited;
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * Runs the binary as `npm start` does with `env` over a test environment (fresh data folder, free port)
 * and waits for it to exit: for start-ups that must refuse. A process still running after `ms` is
 * killed and reported as not having refused.
 */
export async function runPlatformUntilExit(
  env: Record<string, string>,
  ms = 20_000,
): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-refuse-'));
  const child = spawn(process.execPath, [builtServerEntry()], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      OMNI_RANDOM_PORTS: 'true',
      HTTP_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const code = await new Promise<number | null>((res) => child.once('exit', (c) => res(c)));
  clearTimeout(timer);
  rmSync(dataDir, { recursive: true, force: true });
  return { code, output };
}
