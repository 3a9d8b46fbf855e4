// What every engine launcher shares: the one cache folder, running a build step, starting an engine as a
// process of its own (detached, its output in a log file, its process id kept), waiting until it answers,
// and stopping it by process id. The engines themselves (kafka.ts, keycloak.ts, …) say only what is theirs.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { join, resolve } from 'node:path';

export const REPO = resolve(__dirname, '../..');

export type EngineName = 'kafka' | 'keycloak' | 'ferretdb' | 's3' | 'jaeger' | 'mailpit';

/** Where downloads and builds are kept (ignored by git): .engines/ in the repository, or OMNI_ENGINES_DIR. */
export function enginesHome(): string {
  return resolve(process.env.OMNI_ENGINES_DIR?.trim() || join(REPO, '.engines'));
}

export type Log = (line: string) => void;

export interface StartOptions {
  /** The engine's own data folder (made when missing; kept across restarts). */
  dataDir: string;
  /** Ports to listen on; a restart passes the ones of the first start. Missing ones are picked free. */
  ports?: Record<string, number>;
  /** The `env` of the engines started before this one (Keycloak reads SMTP_URL to mail through Mailpit). */
  env?: Record<string, string>;
  log?: Log;
}

export interface RunningEngine {
  name: EngineName;
  /** The process ids this engine runs as (each the leader of its own process group). */
  pids: number[];
  ports: Record<string, number>;
  /** Addresses for people and endpoints.json: URLs or host:port. */
  endpoints: Record<string, string>;
  /** What an Omni process needs in its environment to use this engine. */
  env: Record<string, string>;
  logFile: string;
  /** SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>;
  /** kill -9, for fault tests. */
  kill(): void;
}

export interface Engine {
  name: EngineName;
  /** The exact version run, for notes and the cache folder's name. */
  version: string;
  /** Null when provisioned; otherwise why not, in a sentence naming the command that provisions it. */
  missing(): string | null;
  /** Downloads and builds into enginesHome(); does nothing when already done. Throws with the reason. */
  provision(log: Log): Promise<void>;
  start(options: StartOptions): Promise<RunningEngine>;
}

export class EngineError extends Error {
  override name = 'EngineError';
}

/** Runs a build step to completion; its output goes to `logFile` and, on failure, into the error. */
export function runStep(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; logFile: string; what: string },
): Promise<void> {
  mkdirSync(resolve(options.logFile, '..'), { recursive: true });
  const fd = openSync(options.logFile, 'a');
  return new Promise<void>((done, fail) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', fd, fd],
    });
    child.on('error', (err) => {
      closeSync(fd);
      fail(new EngineError(`${options.what}: could not run ${command}: ${err.message}`));
    });
    child.on('exit', (code, signal) => {
      closeSync(fd);
      if (code === 0) return done();
      fail(
        new EngineError(
          `${options.what} failed (${signal ?? `exit ${code}`}); the end of ${options.logFile}:\n${tail(options.logFile)}`,
        ),
      );
    });
  });
}

/** The last lines of a log file, for error messages. */
export function tail(file: string, lines = 25): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts a long-running engine process detached from this one (it outlives `npm run cluster`), in a
 * process group of its own (so a launcher script and the JVM it starts stop together), its output
 * appended to `logFile`.
 */
export function startDaemon(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; logFile: string },
): ChildProcess & { pid: number } {
  mkdirSync(resolve(options.logFile, '..'), { recursive: true });
  const fd = openSync(options.logFile, 'a');
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  if (!child.pid) throw new EngineError(`could not start ${command}; see ${options.logFile}`);
  child.unref();
  return child as ChildProcess & { pid: number };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

/** SIGTERM to the process group, SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopPid(pid: number, graceMs = 15_000): Promise<void> {
  if (!alive(pid)) return;
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) signalGroup(pid, 'SIGKILL');
  while (alive(pid)) await sleep(50);
}

export function killPid(pid: number): void {
  signalGroup(pid, 'SIGKILL');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A port the OS says is free now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** The given ports, with a free one for every name missing. */
export async function portsFor(
  names: string[],
  given: Record<string, number> = {},
): Promise<Record<string, number>> {
  const ports: Record<string, number> = {};
  for (const name of names) ports[name] = given[name] ?? (await freePort());
  return ports;
}

export function tcpOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((done) => {
    const socket = new Socket();
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.connect(port, host);
  });
}

export async function httpOk(
  url: string,
  accept: (status: number) => boolean = (s) => s < 500,
): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return accept(res.status);
  } catch {
    return false;
  }
}

/**
 * Polls `ready` until it is true. Fails at once, with the end of the engine's log, when its process
 * exits; fails after `timeoutMs` with the same.
 */
export async function waitUntil(
  ready: () => Promise<boolean>,
  options: { what: string; pid: number; logFile: string; timeoutMs: number },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await ready()) return;
    if (!alive(options.pid))
      throw new EngineError(
        `${options.what} exited while starting; the end of ${options.logFile}:\n${tail(options.logFile)}`,
      );
    if (Date.now() > deadline)
      throw new EngineError(
        `${options.what} did not answer within ${Math.round(options.timeoutMs / 1000)} s; the end of ${options.logFile}:\n${tail(options.logFile)}`,
      );
    await sleep(250);
  }
}

export function ensureDir(dir: string, mode = 0o700): string {
  mkdirSync(dir, { recursive: true, mode });
  return dir;
}

export function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The JDK to run an engine needing Java `major`+: JAVA_HOME when new enough, else one under /usr/lib/jvm. */
export function javaHome(major: number): string | null {
  const candidates = [process.env.JAVA_HOME, ...jvmDirs()].filter((d): d is string => Boolean(d));
  for (const home of candidates) {
    const release = join(home, 'release');
    if (!isFile(release) || !isFile(join(home, 'bin/java'))) continue;
    const version = /JAVA_VERSION="(\d+)/.exec(readFileSync(release, 'utf8'))?.[1];
    if (version && Number(version) >= major) return home;
  }
  return null;
}

function jvmDirs(): string[] {
  try {
    return readdirSync('/usr/lib/jvm')
      .map((d) => join('/usr/lib/jvm', d))
      .sort()
      .reverse();
  } catch {
    return [];
  }
}

/** True when `command` is on PATH. */
export function onPath(command: string): boolean {
  return (process.env.PATH ?? '')
    .split(':')
    .filter(Boolean)
    .some((dir) => isFile(join(dir, command)));
}
