// Cluster mode on one machine: the real engines, then every service as its own process on the production
// adapters, the gateway in front — the chart's pods without Kubernetes. What runs is written to
// <dataDir>/cluster.json (process ids, for --stop) and the addresses to <dataDir>/endpoints.json.
// Used by `npm run cluster` and by the suites that run journeys and faults against a cluster.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ENGINES } from '../engines/index';
import { type RunningRecord, recordFile, startEngines, stopRunning } from '../engines/running';
import { alive, EngineError, ensureDir, type Log, stopPid } from '../engines/support';
import {
  type RunningService,
  SERVICES,
  type ServiceName,
  type ServicePorts,
  servicePorts,
  sharedEnv,
  startService,
  waitReady,
} from './services';

export const ADMIN_EMAIL = 'admin@omni.local';

export interface ClusterRecord {
  dataDir: string;
  startedAt: string;
  publicUrl: string;
  services: RunningService[];
  /** The environment each service was started with (a service restarted by a fault test reuses it). */
  env: Record<string, string>;
}

export interface Endpoints {
  gateway: string;
  kafka: string;
  keycloak: string;
  mongodb: string;
  s3: string;
  jaeger: string;
  smtp: string;
  mailpit: string;
  admin: { email: string; passwordFile: string };
}

export const clusterFile = (dataDir: string) => join(dataDir, 'cluster.json');
export const endpointsFile = (dataDir: string) => join(dataDir, 'endpoints.json');

/** A secret made once per cluster folder and kept in an owner-only file. */
function secretFile(dataDir: string, name: string): { file: string; value: string } {
  const file = join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(18).toString('base64url')}\n`, { mode: 0o600 });
  return { file, value: readFileSync(file, 'utf8').trim() };
}

export function readCluster(dataDir: string): ClusterRecord | null {
  try {
    return JSON.parse(readFileSync(clusterFile(dataDir), 'utf8')) as ClusterRecord;
  } catch {
    return null;
  }
}

function readEngines(dataDir: string): RunningRecord | null {
  try {
    return JSON.parse(readFileSync(recordFile(dataDir), 'utf8')) as RunningRecord;
  } catch {
    return null;
  }
}

/** True when a cluster recorded in this folder still has a live process. */
export function clusterRunning(dataDir: string): boolean {
  const services = readCluster(dataDir)?.services ?? [];
  const engines = readEngines(dataDir)?.engines ?? [];
  return [...services.map((s) => s.pid), ...engines.flatMap((e) => e.pids)].some(alive);
}

export interface UpOptions {
  dataDir: string;
  /** The gateway's port (what people open). */
  port: number;
  log?: Log;
}

export async function clusterUp(
  options: UpOptions,
): Promise<{ record: ClusterRecord; endpoints: Endpoints }> {
  const log = options.log ?? (() => undefined);
  const dataDir = ensureDir(resolve(options.dataDir));
  if (clusterRunning(dataDir))
    throw new EngineError(`A cluster already runs from ${dataDir}. Stop it first: npm run cluster -- --stop`);
  const missing = ENGINES.map((e) => [e.name, e.missing()] as const).filter(([, m]) => m);
  if (missing.length)
    throw new EngineError(
      `Cluster mode needs every engine provisioned:\n${missing.map(([n, m]) => `  - ${n}: ${m}`).join('\n')}`,
    );

  const publicUrl = `http://localhost:${options.port}`;
  const engines = await startEngines({
    dataDir: join(dataDir, 'engines'),
    env: { OMNI_PUBLIC_URL: publicUrl },
    log,
  });
  const failed = Object.entries(engines.failed);
  if (failed.length) {
    await stopRunning(engines);
    throw new EngineError(`Engines did not start:\n${failed.map(([n, m]) => `  - ${n}: ${m}`).join('\n')}`);
  }

  const admin = secretFile(dataDir, 'admin-password');
  const objectUrlSecret = secretFile(dataDir, 'object-url-secret').value;
  const ports = await servicePorts(options.port);
  const env = sharedEnv({
    ports,
    engines: engines.engines,
    publicUrl,
    secrets: { objectUrlSecret, adminPassword: admin.value },
  });
  const record: ClusterRecord = {
    dataDir,
    startedAt: new Date().toISOString(),
    publicUrl,
    services: [],
    env,
  };
  const save = () =>
    writeFileSync(clusterFile(dataDir), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  const at = Date.now();
  try {
    for (const name of SERVICES) {
      record.services.push(
        startService({
          name,
          ports: ports[name],
          env,
          dataDir: join(dataDir, 'services'),
          logDir: join(dataDir, 'logs'),
        }),
      );
      save();
    }
    await Promise.all(record.services.map((service) => waitReady(service)));
  } catch (err) {
    await clusterDown(dataDir);
    throw err;
  }
  log(`services ready in ${((Date.now() - at) / 1000).toFixed(1)} s`);

  const endpoints = endpointsOf(engines.engines, publicUrl, admin.file);
  writeFileSync(endpointsFile(dataDir), `${JSON.stringify(endpoints, null, 2)}\n`, { mode: 0o600 });
  return { record, endpoints };
}

function endpointsOf(
  engines: Array<{ name: string; endpoints: Record<string, string> }>,
  gateway: string,
  passwordFile: string,
): Endpoints {
  const all: Record<string, string> = {};
  for (const engine of engines) Object.assign(all, engine.endpoints);
  const need = (key: string) => {
    const value = all[key];
    if (!value) throw new EngineError(`no engine published the ${key} endpoint`);
    return value;
  };
  return {
    gateway,
    kafka: need('kafka'),
    keycloak: need('keycloak'),
    mongodb: need('mongodb'),
    s3: need('s3'),
    jaeger: need('jaeger'),
    smtp: need('smtp'),
    mailpit: need('mailpit'),
    admin: { email: ADMIN_EMAIL, passwordFile },
  };
}

/** Stops the services (gateway first, so no request arrives at a half-stopped cluster), then the engines. */
export async function clusterDown(dataDir: string): Promise<number> {
  const dir = resolve(dataDir);
  const record = readCluster(dir);
  const services = record?.services ?? [];
  const gateway = services.filter((s) => s.name === 'gateway');
  const others = services.filter((s) => s.name !== 'gateway');
  const stopped = services.filter((s) => alive(s.pid)).length;
  for (const service of gateway) await stopPid(service.pid);
  // Then the other services together, and the engines together: each drains on its own.
  await Promise.all(others.map((s) => stopPid(s.pid)));
  const engines = readEngines(join(dir, 'engines'));
  if (!engines) return stopped;
  const live = engines.engines.filter((e) => e.pids.some(alive)).length;
  await Promise.all(engines.engines.flatMap((e) => e.pids.map((pid) => stopPid(pid))));
  return stopped + live;
}

/** Starts one service again with the environment and ports of the cluster's first start (fault tests). */
export async function restartService(dataDir: string, name: ServiceName): Promise<RunningService> {
  const dir = resolve(dataDir);
  const record = readCluster(dir);
  const previous = record?.services.find((s) => s.name === name);
  if (!record || !previous) throw new EngineError(`no ${name} service recorded in ${dir}`);
  await stopPid(previous.pid, 5000);
  const again = startService({
    name,
    ports: previous.ports as ServicePorts,
    env: record.env,
    dataDir: join(dir, 'services'),
    logDir: join(dir, 'logs'),
  });
  record.services = record.services.map((s) => (s.name === name ? again : s));
  writeFileSync(clusterFile(dir), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await waitReady(again);
  return again;
}
