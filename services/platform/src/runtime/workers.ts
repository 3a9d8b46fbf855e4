// Worker threads the platform starts. Node gives a worker its parent's execArgv unless told otherwise; under a
// TypeScript entry that meant `--import tsx --import …/register.ts`, which a worker cannot load (Node 20:
// ERR_UNKNOWN_FILE_EXTENSION), so every worker died at start and every delivery with it. Our workers are
// plain JavaScript (.mjs) and need no loader: they start with an empty execArgv, whatever the parent ran with.
//
// A long-lived worker (the ERN validator) is supervised: when it dies, the cause is logged at error, the
// requests it held are refused with WorkerUnavailableError (a transient fault: the caller retries later), and
// a new worker starts after a back-off that doubles up to a cap and resets once the worker answers again. A
// crash never poisons the requests that come after it.
//
// A worker written in TypeScript (one that shares a service's domain code) is bundled by
// scripts/build-server.mjs beside the entry, dist/omni/<name>.cjs, and started from there; run from the
// sources (jest, tsx), it is its .ts file required through tsx's CommonJS hook, installed by the worker's
// first line (Node 20 does not apply `--import` loader hooks to a worker's own entry file).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { Logger } from '../logging/logger';
import { appPath } from './app-root';

/** A worker thread started without its parent's loader flags (see above). */
export function startWorker(file: string, options: WorkerOptions = {}): Worker {
  return new Worker(file, { ...options, execArgv: options.execArgv ?? [] });
}

/**
 * A TypeScript worker: `name` is its bundle's name (scripts/build-server.mjs WORKERS), `source` its file
 * under the application's root.
 */
export function startTsWorker(name: string, source: string, options: WorkerOptions = {}): Worker {
  // Bundled, this module's code is in dist/omni/main.cjs (or a bench's bundle) and the worker beside it.
  const bundled = join(__dirname, `${name}.cjs`);
  if (existsSync(bundled)) return startWorker(bundled, options);
  const boot = `require(${JSON.stringify(appPath('node_modules/tsx/dist/cjs/api/index.cjs'))}).register();
require(${JSON.stringify(appPath(source))});`;
  return startWorker(boot, { ...options, eval: true });
}

/** The worker could not answer (it died or is restarting): try again later, nothing was wrong with the input. */
export class WorkerUnavailableError extends Error {
  override readonly name = 'WorkerUnavailableError';
}

export interface SupervisedWorker<Req, Res> {
  request(message: Req): Promise<Res>;
  close(): Promise<void>;
}

export interface SupervisedWorkerOptions {
  /** Who the worker is, for the log ("ERN validator"). */
  name: string;
  file: string;
  workerData?: unknown;
  logger: Pick<Logger, 'error' | 'info'>;
  /** First restart delay and its cap (ms). */
  restartBaseMs?: number;
  restartCapMs?: number;
}

type Reply<Res> = { id: number; result?: Res; error?: string };
type Pending<Res> = { message: unknown; resolve: (r: Res) => void; reject: (e: Error) => void };

/**
 * A request/response worker kept alive: each request posts `{ id, ...message }` and the worker answers
 * `{ id, result }` or `{ id, error }` (an error the worker caught while handling that one request).
 */
export function superviseWorker<Req extends object, Res>(
  options: SupervisedWorkerOptions,
): SupervisedWorker<Req, Res> {
  const baseMs = options.restartBaseMs ?? 100;
  const capMs = options.restartCapMs ?? 30_000;
  const pending = new Map<number, Pending<Res>>();
  let next = 0;
  let worker: Worker | null = null;
  let restartTimer: NodeJS.Timeout | null = null;
  let crashes = 0;
  let closed = false;

  const settleIdle = () => {
    // An idle worker must not keep the process alive; one with work in hand must.
    if (!worker) return;
    if (pending.size === 0) worker.unref();
    else worker.ref();
  };

  const start = () => {
    restartTimer = null;
    if (closed) return;
    const w = startWorker(options.file, { workerData: options.workerData });
    worker = w;
    let cause: Error | undefined;
    w.on('message', ({ id, result, error }: Reply<Res>) => {
      const p = pending.get(id);
      if (!p) return;
      pending.delete(id);
      crashes = 0;
      if (error === undefined) p.resolve(result as Res);
      else p.reject(new Error(`${options.name} could not handle the request: ${error}`));
      settleIdle();
    });
    w.on('error', (err) => {
      cause = err;
    });
    w.on('exit', (code) => {
      if (worker !== w) return;
      worker = null;
      if (closed) return;
      crashes += 1;
      const delayMs = Math.min(capMs, baseMs * 2 ** (crashes - 1));
      options.logger.error(
        { err: cause, exitCode: code, crashes, restartInMs: delayMs },
        `${options.name} worker stopped; restarting`,
      );
      const lost = new WorkerUnavailableError(`${options.name} is restarting`);
      for (const p of pending.values()) p.reject(lost);
      pending.clear();
      restartTimer = setTimeout(start, delayMs);
      restartTimer.unref();
    });
    // Requests that arrived while no worker was running.
    for (const [id, p] of pending) w.postMessage({ ...(p.message as object), id });
    settleIdle();
  };

  start();

  return {
    request(message) {
      if (closed) return Promise.reject(new WorkerUnavailableError(`${options.name} is closed`));
      const id = next++;
      return new Promise<Res>((resolve, reject) => {
        pending.set(id, { message, resolve, reject });
        if (worker) {
          worker.postMessage({ ...message, id });
          settleIdle();
        }
      });
    },
    async close() {
      closed = true;
      if (restartTimer) clearTimeout(restartTimer);
      const w = worker;
      worker = null;
      const gone = new WorkerUnavailableError(`${options.name} is closed`);
      for (const p of pending.values()) p.reject(gone);
      pending.clear();
      if (w) await w.terminate();
    },
  };
}
