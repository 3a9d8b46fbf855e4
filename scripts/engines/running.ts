// Starting the provisioned engines together, and the record of what runs (<dataDir>/engines.json, owner-only:
// it holds the engines' generated secrets) from which `down` stops them by process id, even from another
// process than the one that started them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINES, engine } from './index';
import { type EngineName, ensureDir, killPid, type Log, type RunningEngine, stopPid } from './support';

export interface RunningRecord {
  engines: Array<Pick<RunningEngine, 'name' | 'pids' | 'ports' | 'endpoints' | 'env' | 'logFile'>>;
  /** Engines not started, with the reason (not provisioned, or failed to start). */
  skipped: Partial<Record<EngineName, string>>;
  /** Engines that were provisioned but did not start: a failure, not a skip. */
  failed: Partial<Record<EngineName, string>>;
  /** The env given to every engine at start (a restart gives it again). */
  given?: Record<string, string>;
}

export interface Started extends RunningRecord {
  engines: RunningEngine[];
  /** Every engine's env merged, in start order. */
  env: Record<string, string>;
}

export function recordFile(dataDir: string): string {
  return join(dataDir, 'engines.json');
}

export async function startEngines(options: {
  dataDir: string;
  only?: EngineName[];
  /** Given to every engine besides the env of the first (Mailpit's SMTP_URL), e.g. OMNI_PUBLIC_URL. */
  env?: Record<string, string>;
  log?: Log;
}): Promise<Started> {
  const log = options.log ?? (() => undefined);
  ensureDir(options.dataDir);
  const started: Started = { engines: [], skipped: {}, failed: {}, env: {}, given: options.env ?? {} };
  const save = () => writeRecord(options.dataDir, started);
  const chosen = ENGINES.filter((e) => !options.only || options.only.includes(e.name));
  const results = new Map<EngineName, RunningEngine>();
  const launch = async (engine: (typeof ENGINES)[number], env: Record<string, string>) => {
    const missing = engine.missing();
    if (missing) {
      started.skipped[engine.name] = missing;
      return;
    }
    const at = Date.now();
    try {
      const running = await engine.start({
        dataDir: ensureDir(join(options.dataDir, engine.name)),
        env,
        log,
      });
      results.set(engine.name, running);
      log(`${engine.name} ${engine.version} started in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    } catch (err) {
      started.failed[engine.name] = (err as Error).message;
      log(`${engine.name} ${engine.version} did not start: ${(err as Error).message}`);
    }
  };
  // Mail first (Keycloak's realm mails through it); then the rest at once: Keycloak's start is most of
  // the wait, and Kafka's JVM start overlaps it.
  const [first, ...rest] = chosen;
  if (first) await launch(first, { ...options.env });
  const firstEnv = (first && results.get(first.name)?.env) ?? {};
  await Promise.all(rest.map((engine) => launch(engine, { ...options.env, ...firstEnv })));
  for (const engine of chosen) {
    const running = results.get(engine.name);
    if (!running) continue;
    started.engines.push(running);
    Object.assign(started.env, running.env);
  }
  save();
  return started;
}

function writeRecord(dataDir: string, started: RunningRecord): void {
  const record: RunningRecord = {
    engines: started.engines.map(({ name, pids, ports, endpoints, env, logFile }) => ({
      name,
      pids,
      ports,
      endpoints,
      env,
      logFile,
    })),
    skipped: started.skipped,
    failed: started.failed,
    given: started.given,
  };
  writeFileSync(recordFile(dataDir), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

export function readRunning(dataDir: string): RunningRecord {
  try {
    return JSON.parse(readFileSync(recordFile(dataDir), 'utf8')) as RunningRecord;
  } catch {
    return { engines: [], skipped: {}, failed: {} };
  }
}

/** Stops every engine of a record, the last started first. */
export async function stopRunning(record: Pick<RunningRecord, 'engines'>): Promise<void> {
  for (const engine of [...record.engines].reverse()) {
    for (const pid of engine.pids) await stopPid(pid);
  }
}

/** kill -9 of one recorded engine (fault tests); the record keeps its ports for a restart. */
export function killEngine(dataDir: string, name: EngineName): void {
  const engine = readRunning(dataDir).engines.find((e) => e.name === name);
  if (!engine) throw new Error(`no ${name} engine recorded in ${dataDir}`);
  for (const pid of engine.pids) killPid(pid);
}

/**
 * Starts one recorded engine again on its data folder and ports (after killEngine, or stopping it), with
 * the env it had, and records its new process ids.
 */
export async function restartEngine(dataDir: string, name: EngineName, log?: Log): Promise<void> {
  const record = readRunning(dataDir);
  const at = record.engines.findIndex((e) => e.name === name);
  const previous = record.engines[at];
  if (!previous) throw new Error(`no ${name} engine recorded in ${dataDir}`);
  for (const pid of previous.pids) await stopPid(pid, 5000);
  const env: Record<string, string> = { ...record.given };
  for (const before of record.engines.slice(0, at)) Object.assign(env, before.env);
  const running = await engine(name).start({
    dataDir: join(dataDir, name),
    ports: previous.ports,
    env,
    log,
  });
  record.engines[at] = {
    name,
    pids: running.pids,
    ports: running.ports,
    endpoints: running.endpoints,
    env: running.env,
    logFile: running.logFile,
  };
  writeRecord(dataDir, record);
}
