// Omni as its users start it, for the journeys and the benches: `node scripts/start.mjs --no-build` (what
// `npm start` runs) as a child process on a fresh data folder and a free port, never in this process. The
// web app is built first (incremental) because --no-build skips it. Ready once /healthz says every service
// is serving; the admin's password is read where a newcomer reads it (<data>/initial-admin.txt). Its output
// is kept to attach to a failure (explain) and written to tests/.artifacts/journey-<name>.log on stop.
//
// The child gets its own process group, and `kill9()` hits the whole group, as a crash or the OOM killer
// of a container would: start.mjs runs the platform in its own process today, but had it a child (it once
// started the platform as one), kill -9 of start.mjs alone would leave Omni running. `restart()` starts
// again on the same data and the same port.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../support/ports';
import { artifacts, buildWebApp, eventually, type Omni, type OmniOptions, repoRoot } from './omni';

export { artifacts, buildWebApp, eventually, type Omni, type OmniOptions, repoRoot } from './omni';

/** Start-up on a loaded 2-core machine (a server build first, when sources changed) can take a while. */
const START_MS = 180_000;
/** A graceful stop drains every service; after this it is killed. */
const STOP_MS = 30_000;

/**
 * The environment of a person's shell, not this test runner's: jest sets NODE_ENV=test and the test setup
 * LOG_LEVEL=silent, which would change what Omni does and hide what it says.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_ENV;
  delete env.LOG_LEVEL;
  return env;
}

export async function startOmni(options: OmniOptions): Promise<Omni> {
  // The journeys' second run: the same journeys on `npm run cluster` (scripts/test.mjs sets this).
  if (process.env.OMNI_JOURNEY_TARGET === 'cluster')
    return (await import('./cluster-process')).startCluster(options);
  buildWebApp();
  const fresh = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), `omni-journey-${options.name}-`));
  const port = await freePort();
  const url = `http://localhost:${port}`;
  let log = '';
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let runs = 0;

  const launch = async () => {
    runs += 1;
    log += `\n===== start ${runs} (${new Date().toISOString()}) =====\n`;
    const started = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
      cwd: repoRoot,
      env: {
        ...userEnv(),
        DATA_DIR: dataDir,
        HTTP_PORT: String(port),
        // The services other than the gateway listen on ports the OS picks: two Omnis on one machine
        // (parallel test files, another engineer's `npm start`) must not fight over 9101 and 50051.
        OMNI_RANDOM_PORTS: 'true',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = started;
    // A test runner that dies (a crashed jest worker, Ctrl-C) must not leave Omni running on its own.
    const orphanGuard = () => {
      try {
        if (started.pid) process.kill(-started.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    process.once('exit', orphanGuard);
    started.once('exit', () => process.off('exit', orphanGuard));
    const collect = (chunk: Buffer) => {
      log += chunk.toString();
      if (options.echo) process.stdout.write(chunk);
    };
    started.stdout?.on('data', collect);
    started.stderr?.on('data', collect);
    exited = new Promise((done) => started.once('exit', () => done()));
    try {
      await eventually(
        async () => {
          if (started.exitCode !== null || started.signalCode !== null)
            throw new Error(`Omni exited during start-up (${started.exitCode ?? started.signalCode})`);
          const res = await fetch(`${url}/healthz`);
          const body = (await res.json()) as { status: string };
          return res.ok && body.status === 'ok' ? true : undefined;
        },
        `${url}/healthz to say every service is serving`,
        START_MS,
      ).catch(async (err: Error) => {
        if (started.exitCode !== null) err.message = `Omni exited during start-up (code ${started.exitCode})`;
        throw err;
      });
    } catch (err) {
      await killGroup();
      throw explain(err);
    }
  };

  const killGroup = async () => {
    const running = child;
    if (!running?.pid) return;
    try {
      process.kill(-running.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await exited;
    // The platform is the group's other member: wait until the group is empty (signal 0 fails then).
    await eventually(
      () => {
        try {
          process.kill(-(running.pid as number), 0);
          return undefined;
        } catch {
          return true;
        }
      },
      'the killed process group to be gone',
      10_000,
      50,
    );
  };

  const writeLog = () => {
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(join(artifacts, `journey-${options.name}.log`), log);
  };

  const explain = (err: unknown): never => {
    writeLog();
    const original = err instanceof Error ? err : new Error(String(err));
    const tail = log.split('\n').slice(-80).join('\n');
    const error = new Error(
      `${original.message}\n\n--- Omni's output (last 80 lines; all of it in tests/.artifacts/journey-${options.name}.log) ---\n${tail}`,
      { cause: original },
    );
    // jest prints the stack, which repeats the message it was made with: keep the original's frames.
    error.stack = `${error.message}\n${(original.stack ?? '')
      .split('\n')
      .filter((l) => /^\s+at /.test(l))
      .join('\n')}`;
    throw error;
  };

  await launch();
  const admin = options.env?.OMNI_ADMIN_PASSWORD
    ? { email: 'admin@omni.local', password: options.env.OMNI_ADMIN_PASSWORD }
    : readInitialAdmin(dataDir);

  return {
    url,
    dataDir,
    admin,
    serviceDataDir: () => dataDir,
    get pid() {
      return child?.pid;
    },
    output: () => log,
    kill9: killGroup,
    restart: launch,
    explain,
    async stop() {
      const running = child;
      if (running?.pid && running.exitCode === null && running.signalCode === null) {
        running.kill('SIGTERM');
        const timer = setTimeout(() => void killGroup(), STOP_MS);
        await exited;
        clearTimeout(timer);
        if (running.exitCode !== 0) log += `\n[omni-process] start.mjs exited with ${running.exitCode}\n`;
      }
      writeLog();
      if (fresh) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The first administrator, as the start-up banner tells a newcomer to find it. */
function readInitialAdmin(dataDir: string): { email: string; password: string } {
  const file = join(dataDir, 'initial-admin.txt');
  if (!existsSync(file)) throw new Error(`No ${file}: Omni did not seed its first administrator.`);
  const text = readFileSync(file, 'utf8');
  const email = /^email:\s*(\S+)/m.exec(text)?.[1];
  const password = /^password:\s*(\S+)/m.exec(text)?.[1];
  if (!email || !password) throw new Error(`${file} does not name an email and a password:\n${text}`);
  return { email, password };
}
