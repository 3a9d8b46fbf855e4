// Omni's services in cluster mode: each its own OS process running the one entry (dist/omni/main.cjs) with
// OMNI_SERVICES=<name>, on the production adapters the engines provide, addressed by its peers the way the
// chart's ConfigMap addresses pods (<NAME>_GRPC_ADDR, <NAME>_HTTP_URL).
import { join } from 'node:path';
import { SERVICE_NAMES as SERVICES, type ServiceName } from '../../services/platform/src/config/services';
import {
  ensureDir,
  freePort,
  httpOk,
  REPO,
  type RunningEngine,
  startDaemon,
  waitUntil,
} from '../engines/support';

// The platform's own list, in its start order (dependencies first): one source for which services exist.
export { SERVICE_NAMES as SERVICES, type ServiceName } from '../../services/platform/src/config/services';

export const SERVER_ENTRY = join(REPO, 'dist/omni/main.cjs');

export interface ServicePorts {
  http: number;
  grpc: number;
}

export interface RunningService {
  name: ServiceName;
  pid: number;
  ports: ServicePorts;
  logFile: string;
}

/** Ports for every service: the gateway's HTTP port is the one people open; the rest are picked free. */
export async function servicePorts(
  gatewayPort: number,
  given: Partial<Record<ServiceName, ServicePorts>> = {},
): Promise<Record<ServiceName, ServicePorts>> {
  const ports = {} as Record<ServiceName, ServicePorts>;
  // A free port is closed again before it is used, so the system may hand the same one out twice (seen:
  // finder and royalties both given one HTTP port, and royalties could not start): never twice here.
  const taken = new Set<number>([gatewayPort]);
  for (const p of Object.values(given)) if (p) taken.add(p.http).add(p.grpc);
  const fresh = async () => {
    for (;;) {
      const port = await freePort();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
  for (const name of SERVICES)
    ports[name] = given[name] ?? {
      http: name === 'gateway' ? gatewayPort : await fresh(),
      grpc: await fresh(),
    };
  return ports;
}

/** The environment every service process shares: engines, peers, public address, secrets. */
export function sharedEnv(options: {
  ports: Record<ServiceName, ServicePorts>;
  engines: RunningEngine[] | Array<Pick<RunningEngine, 'env'>>;
  publicUrl: string;
  secrets: { objectUrlSecret: string; adminPassword: string };
}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const engine of options.engines) Object.assign(env, engine.env);
  // Test-only addresses some engines publish for the suites; services never read them.
  for (const key of ['MAILPIT_URL', 'JAEGER_URL', 'KEYCLOAK_ADMIN_USER']) delete env[key];
  for (const name of SERVICES) {
    const upper = name.toUpperCase();
    env[`${upper}_GRPC_ADDR`] = `127.0.0.1:${options.ports[name].grpc}`;
    env[`${upper}_HTTP_URL`] = `http://127.0.0.1:${options.ports[name].http}`;
  }
  return {
    ...env,
    PUBLIC_URL: options.publicUrl,
    OBJECT_URL_SECRET: options.secrets.objectUrlSecret,
    OMNI_ADMIN_PASSWORD: options.secrets.adminPassword,
    INTERNAL_HOST: '127.0.0.1',
    // FerretDB has no transactions: journaled ones have no isolation, so while an approval commits its
    // jobs the delivery worker already works on them and their writes queue together (20 stores measured
    // 5–14 s, 3 stores 0.3 s). A 5 s deadline would tell the admin it failed while it succeeds.
    GRPC_DEADLINE_MS: process.env.GRPC_DEADLINE_MS ?? '30000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
}

/** Starts one service process (detached: it outlives `npm run cluster`). */
export function startService(options: {
  name: ServiceName;
  ports: ServicePorts;
  env: Record<string, string>;
  dataDir: string;
  logDir: string;
}): RunningService {
  const { name, ports } = options;
  const logFile = join(ensureDir(options.logDir), `${name}.log`);
  const child = startDaemon(process.execPath, [SERVER_ENTRY], {
    cwd: REPO,
    logFile,
    // The operator's own settings (e.g. STORE_SIMULATOR_DELAY_MS) pass through; the cluster's win.
    env: {
      ...process.env,
      ...options.env,
      OMNI_SERVICES: name,
      HTTP_PORT: String(ports.http),
      GRPC_PORT: String(ports.grpc),
      // Only the gateway faces browsers; the others listen on loopback, as pods behind a cluster network.
      BIND_HOST: name === 'gateway' ? (process.env.BIND_HOST ?? '0.0.0.0') : '127.0.0.1',
      DATA_DIR: ensureDir(join(options.dataDir, name)),
      // The stores' report folder is shared: the simulator (delivery) writes it, royalties reads it.
      STORE_REPORTS_DIR: ensureDir(join(options.dataDir, 'store-reports')),
      OTEL_SERVICE_NAME: `omni-${name}`,
      OTEL_RESOURCE_ATTRIBUTES: `service.namespace=omni,service.instance.id=${name}-1`,
    },
  });
  return { name, pid: child.pid, ports, logFile };
}

/** Waits until a service answers /readyz with 200 (all its checks pass). */
export function waitReady(service: RunningService, timeoutMs = 120_000): Promise<void> {
  return waitUntil(() => httpOk(`http://127.0.0.1:${service.ports.http}/readyz`, (s) => s === 200), {
    what: `the ${service.name} service`,
    pid: service.pid,
    logFile: service.logFile,
    timeoutMs,
  });
}
