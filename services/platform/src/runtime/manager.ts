// Starts a set of services in dependency order on their ports, and stops them in reverse: stop accepting
// HTTP and gRPC, let in-flight calls finish, run stop hooks (which close subscriptions and commit offsets),
// then close the stores. Backs each service's /healthz (alive) and /readyz (ready to serve).
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { objectStoreOrigin, type PlatformConfig } from '../config/config';
import type { ServiceName } from '../config/services';
import { tightenDataDir } from '../data-dir/tighten';
import { createGrpcClient, type PromiseClient } from '../grpc/client';
import { httpErrorFromGrpc } from '../grpc/errors';
import { createGrpcServer, type GrpcServerHandle } from '../grpc/server';
import { apiNotFound, createHttpApp, errorHandler, publicCsp, securityHeaders } from '../http/app';
import { continueOnFirstRead } from '../http/expect-continue';
import { dispatchWithFastPaths, type HttpFastPath } from '../http/fast-path';
import { createLogger, type Logger } from '../logging/logger';
import { startOrder } from './graph';
import { createPorts, type Ports } from './ports';
import type { PortName, ServiceContext, ServiceModule } from './service';

interface Running {
  module: ServiceModule;
  ctx: ServiceContext;
  grpc: GrpcServerHandle;
  httpServer?: Server;
  checks: Map<string, () => Promise<boolean>>;
  stopHooks: (() => Promise<void> | void)[];
  drainHooks: (() => Promise<void> | void)[];
  startedHooks: (() => Promise<void> | void)[];
}

export interface Platform {
  config: PlatformConfig;
  ports: Ports;
  /** The URL of the public service (or of the first service's HTTP port when none is public). */
  url: string;
  /** This process's services, in the order they started (callees before callers). */
  services: ServiceName[];
  ready(): Promise<Record<string, boolean>>;
  stop(): Promise<void>;
}

export async function startPlatform(
  config: PlatformConfig,
  modules: Record<ServiceName, ServiceModule>,
  options: { logger?: Logger } = {},
): Promise<Platform> {
  const logger = options.logger ?? createLogger('runtime');
  // Refused before anything opens: a cycle in the declared calls has no start order.
  const order = startOrder(modules, config.services);
  const publicName = order.find((name) => modules[name].public);
  // Before any adapter writes: a data folder an older version left readable by everyone is made private.
  await tightenDataDir(config.dataDir, logger);
  const ports = createPorts(config, logger);
  const running: Running[] = [];
  const clients = new Map<string, { close(): void }>();

  const sharedClient = <D extends Record<string, unknown>>(service: ServiceName, definition: D) => {
    const key = `${service}:${Object.keys(definition).join(',')}`;
    let c = clients.get(key);
    if (!c) {
      c = createGrpcClient(definition as never, () => config.grpcAddress(service), {
        deadlineMs: config.env.GRPC_DEADLINE_MS,
      });
      clients.set(key, c);
    }
    return c as unknown as PromiseClient<D>;
  };

  const stopAll = async () => {
    for (const r of [...running].reverse()) {
      r.grpc.setServing(false);
      const closed = new Promise<void>((resolve) =>
        r.httpServer ? r.httpServer.close(() => resolve()) : resolve(),
      );
      // close() waits for every open response: the long-lived ones are ended first.
      for (const hook of r.drainHooks) {
        try {
          await hook();
        } catch (err) {
          r.ctx.logger.warn({ err }, 'drain hook failed');
        }
      }
      await closed;
      r.httpServer?.closeIdleConnections();
      await r.grpc.stop(5000);
      for (const hook of [...r.stopHooks].reverse()) {
        try {
          await hook();
        } catch (err) {
          r.ctx.logger.warn({ err }, 'stop hook failed');
        }
      }
    }
    for (const c of clients.values()) c.close();
    await ports.closeAll();
  };

  // The public service's HTTP port is taken before any service starts: an unset PUBLIC_URL follows the port
  // it really got (HTTP_PORT=8095, or one the OS picks), and services read the public URL as they start
  // (mail links, signed object URLs, the embedded issuer). Until that service is ready it answers 503.
  let early: Listening | undefined;
  try {
    if (publicName) {
      early = await listenHttp(publicName, config.env.BIND_HOST, config.listen(publicName).http);
      config.gatewayListening(early.port);
    }
  } catch (err) {
    await ports.closeAll();
    throw err;
  }

  try {
    for (const name of order) {
      const module = modules[name];
      const serviceLogger = createLogger(name);
      const grpc = createGrpcServer(name, serviceLogger);
      const csp = module.public ? publicCsp(config.publicUrl, objectStoreOrigin(config.env)) : {};
      // Only the declared callees (and itself, for its own health): the graph the chart's NetworkPolicies
      // admit is the graph the code can use, in one process as in a cluster.
      const client = <D extends Record<string, unknown>>(service: ServiceName, definition: D) => {
        if (service !== name && !module.calls.includes(service))
          throw new Error(
            `${name} calls ${service}, which is not among the services it declares it calls (${module.calls.join(', ') || 'none'}).`,
          );
        return sharedClient(service, definition);
      };
      const http = createHttpApp({ logger: serviceLogger, csp });
      const fastPaths: HttpFastPath[] = [];
      const headers = securityHeaders(csp);
      const r: Running = {
        module,
        grpc,
        checks: new Map(),
        stopHooks: [],
        drainHooks: [],
        startedHooks: [],
        ctx: undefined as unknown as ServiceContext,
      };
      r.ctx = {
        name,
        config,
        logger: serviceLogger,
        ports: declaredPorts(ports, module),
        grpc,
        http,
        client,
        securityHeaders: headers,
        fastPath: (fastPath) => fastPaths.push(fastPath),
        readiness: (check, fn) => r.checks.set(check, fn),
        onStop: (hook) => r.stopHooks.push(hook),
        onDraining: (hook) => r.drainHooks.push(hook),
        onStarted: (hook) => r.startedHooks.push(hook),
      };
      const readiness = async () => {
        const results: Record<string, boolean> = {};
        for (const [check, fn] of r.checks) results[check] = await fn().catch(() => false);
        return results;
      };
      http.get('/readyz', async (_req, res) => {
        const checks = await readiness();
        const ok = Object.values(checks).every(Boolean);
        res.status(ok ? 200 : 503).json({ service: name, ready: ok, checks });
      });
      // The public service's /healthz reports on every service; the others' on themselves.
      if (!module.public) http.get('/healthz', (_req, res) => res.json({ service: name, status: 'ok' }));
      // Registered before listening, so a failed start still stops what this service began (its gRPC
      // server, subscriptions, stop hooks).
      running.push(r);
      await module.init(r.ctx);
      // After the service's own routes: JSON 404 for unknown API paths, one error handler for all.
      http.use('/api', apiNotFound);
      http.use(errorHandler(serviceLogger, httpErrorFromGrpc));

      const endpoint = config.listen(name);
      const host = module.public || !config.allInOne ? config.env.BIND_HOST : config.env.INTERNAL_HOST;
      const grpcPort = await grpc.listen(host, endpoint.grpc);
      const listening = name === publicName && early ? early : await listenHttp(name, host, endpoint.http);
      r.httpServer = listening.server;
      listening.serve(dispatchWithFastPaths(http, fastPaths, headers, serviceLogger));
      config.bound.set(name, { http: listening.port, grpc: grpcPort });
      grpc.setServing(true);
      for (const hook of r.startedHooks) await hook();
      serviceLogger.debug({ http: listening.port, grpc: grpcPort }, 'service started');
    }
  } catch (err) {
    await stopAll().catch(() => undefined);
    // Taken before the services, closed here if the public service never got as far as being stopped with them.
    if (early?.server.listening) await new Promise((resolve) => early!.server.close(resolve));
    throw err;
  }

  const front = publicName ?? order[0]!;
  const url = `http://localhost:${config.bound.get(front)!.http}`;
  let stopping: Promise<void> | undefined;
  return {
    config,
    ports,
    url,
    services: order,
    async ready() {
      const out: Record<string, boolean> = {};
      for (const r of running) {
        for (const [check, fn] of r.checks) out[`${r.module.name}.${check}`] = await fn().catch(() => false);
      }
      return out;
    },
    stop() {
      stopping ??= stopAll();
      return stopping;
    },
  };
}

/** The ports as one service sees them: only those it declares, and only its own documents. */
function declaredPorts(ports: Ports, module: ServiceModule): Ports {
  const refuse = (port: PortName, detail = '') => {
    throw new Error(
      `${module.name} opens the ${port} port${detail}, which is not among the ports it declares (${module.ports.join(', ') || 'none'}).`,
    );
  };
  const allowed = <T>(port: PortName, open: () => Promise<T>) =>
    module.ports.includes(port) ? open() : refuse(port);
  return {
    ...ports,
    documents: (service) =>
      service === module.name || service.startsWith(`${module.name}-`)
        ? allowed('documents', () => ports.documents(service))
        : refuse('documents', ` of ${service} (each service owns its data)`),
    events: () => allowed('events', ports.events),
  };
}

interface Listening {
  server: Server;
  port: number;
  /** Gives the server its handler; until then it answers 503. */
  serve(handler: RequestListener): void;
}

async function listenHttp(name: ServiceName, host: string, port: number): Promise<Listening> {
  let handler: RequestListener = (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(
      JSON.stringify({ error: { message: 'Omni is starting; try again in a moment.', code: 'starting' } }),
    );
  };
  const dispatch: RequestListener = (req, res) => handler(req, res);
  const server = createServer(dispatch);
  continueOnFirstRead(server, dispatch);
  await new Promise<void>((resolve, reject) => {
    // A listen error (e.g. EADDRINUSE) refuses the start rather than carry on with a server that is not
    // listening.
    const failed = (err: Error) =>
      reject(new Error(`${name} cannot listen on ${host}:${port}: ${err.message}`));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  // Slow clients must not hold sockets forever; uploads set their own longer limits per request.
  server.headersTimeout = 30_000;
  server.requestTimeout = 0;
  server.keepAliveTimeout = 5_000;
  return {
    server,
    port: (server.address() as AddressInfo).port,
    serve(next) {
      handler = next;
    },
  };
}
