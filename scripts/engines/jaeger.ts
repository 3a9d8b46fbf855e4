// Jaeger 1.76 (the collector-based "v2" binary), built from source with Go and run all-in-one: OTLP in,
// traces kept in memory, the query API and UI out. `go install` refuses the module (its go.mod has replace
// directives), so it is built as a tool of a throwaway module of our own.
//
// Traces live in memory: a restart keeps the ports but not the traces. Nothing in Omni reads traces back,
// and a disk store (badger) would cost the shared machine hundreds of megabytes for nothing.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Engine,
  EngineError,
  enginesHome,
  ensureDir,
  httpOk,
  isFile,
  killPid,
  onPath,
  portsFor,
  runStep,
  startDaemon,
  stopPid,
  waitUntil,
} from './support';

const VERSION = '1.76.0';
const MODULE = 'github.com/jaegertracing/jaeger';
const home = () => join(enginesHome(), `jaeger-${VERSION}`);
const binary = () => join(home(), 'bin', 'jaeger');

/**
 * Every address the binary binds is named here: the embedded all-in-one configuration also opens the Jaeger
 * and Zipkin receivers, sampling, health, expvar, zpages and metrics on fixed ports, and two instances
 * (or another Jaeger on the machine) would then collide.
 */
function configYaml(ports: Record<string, number>): string {
  const at = (name: string) => `127.0.0.1:${ports[name]}`;
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    resource:
      service.name: jaeger
    metrics:
      level: none
    logs:
      level: info

extensions:
  jaeger_storage:
    backends:
      memory_store:
        memory:
          max_traces: 100000
  jaeger_query:
    storage:
      traces: memory_store
    http:
      endpoint: ${at('query')}
    grpc:
      endpoint: ${at('queryGrpc')}

receivers:
  otlp:
    protocols:
      http:
        endpoint: ${at('otlp')}
      grpc:
        endpoint: ${at('otlpGrpc')}

processors:
  batch:

exporters:
  jaeger_storage_exporter:
    trace_storage: memory_store
`;
}

export const jaeger: Engine = {
  name: 'jaeger',
  version: VERSION,

  missing() {
    if (isFile(binary())) return null;
    return `Jaeger ${VERSION} is not built yet: run \`npm run engines -- provision jaeger\` (needs Go).`;
  },

  async provision(log) {
    if (isFile(binary())) return;
    if (!onPath('go')) throw new EngineError('Jaeger is built from source and needs Go on the PATH.');
    const dir = ensureDir(join(home(), 'module'));
    const logFile = join(home(), 'build.log');
    const env = { ...process.env, GOFLAGS: '-buildvcs=false', GOTOOLCHAIN: 'local' };
    if (!isFile(join(dir, 'go.mod'))) {
      log(`building Jaeger ${VERSION} with Go (several minutes the first time); output in ${logFile}`);
      await runStep('go', ['mod', 'init', 'omni-engines/jaeger'], {
        cwd: dir,
        env,
        logFile,
        what: 'go mod init',
      });
    }
    await runStep('go', ['get', '-tool', `${MODULE}/cmd/jaeger@v${VERSION}`], {
      cwd: dir,
      env,
      logFile,
      what: `go get jaeger v${VERSION}`,
    });
    // Built beside its final name and renamed, so an interrupted build never looks provisioned.
    const partial = `${binary()}.partial`;
    ensureDir(join(home(), 'bin'));
    await runStep('go', ['build', '-o', partial, `${MODULE}/cmd/jaeger`], {
      cwd: dir,
      env,
      logFile,
      what: `go build jaeger v${VERSION}`,
    });
    renameSync(partial, binary());
  },

  async start({ dataDir, ports: given, log }) {
    const missing = jaeger.missing();
    if (missing) throw new EngineError(missing);
    ensureDir(dataDir);
    const ports = await portsFor(['otlp', 'otlpGrpc', 'query', 'queryGrpc'], given);
    const config = join(dataDir, 'jaeger.yaml');
    writeFileSync(config, configYaml(ports));
    const logFile = join(dataDir, 'jaeger.log');
    const child = startDaemon(binary(), ['--config', config], { cwd: dataDir, logFile });
    const query = `http://127.0.0.1:${ports.query}`;
    const otlp = `http://127.0.0.1:${ports.otlp}`;
    try {
      await waitUntil(
        async () =>
          (await httpOk(`${query}/api/services`, (s) => s === 200)) &&
          // The receiver answers 405 to a GET once it listens.
          (await httpOk(`${otlp}/v1/traces`, (s) => s < 500)),
        { what: `Jaeger ${VERSION}`, pid: child.pid, logFile, timeoutMs: 60_000 },
      );
    } catch (err) {
      killPid(child.pid);
      throw err;
    }
    log?.(`jaeger: query ${query}, OTLP ${otlp}`);
    return {
      name: 'jaeger',
      pids: [child.pid],
      ports,
      endpoints: { jaeger: query, otlp },
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp, JAEGER_URL: query },
      logFile,
      stop: () => stopPid(child.pid),
      kill: () => killPid(child.pid),
    };
  },
};
