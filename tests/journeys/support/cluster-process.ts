// Omni as `npm run cluster` starts it, for the journeys' second run (OMNI_JOURNEY_TARGET=cluster): the real
// engines and every service as its own process on the production adapters, started by the real command
// (`node --import tsx scripts/cluster.ts`, what `npm run cluster` runs) on a fresh folder and a free gateway
// port, stopped by `--stop`. Mail goes to Mailpit, so the people helpers read links from Mailpit's API
// (mailpitFor). kill9() kills every service process (the engines stay, as a cluster's pods die and its
// databases do not); restart() starts them again with the environment and ports of the first start.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ClusterRecord,
  clusterFile,
  type Endpoints,
  endpointsFile,
  restartService,
} from '../../../scripts/cluster/cluster';
import { ENGINES } from '../../../scripts/engines/index';
import { alive, killPid, tail } from '../../../scripts/engines/support';
import { mailpitFor } from '../../support/mailpit';
import { freePort } from '../../support/ports';
import { artifacts, buildWebApp, eventually, type Omni, type OmniOptions, repoRoot } from './omni';

/** Why the cluster cannot run here (an engine not provisioned), or null. */
export function clusterUnavailable(): string | null {
  const missing = ENGINES.map((e) => e.missing()).filter(Boolean);
  return missing.length ? missing.join(' ') : null;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster.ts', ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.once('exit', (code) => done({ code, output }));
  });
}

export interface Cluster extends Omni {
  readonly endpoints: Endpoints;
  record(): ClusterRecord;
}

export async function startCluster(options: OmniOptions): Promise<Cluster> {
  buildWebApp();
  const dataDir = mkdtempSync(join(tmpdir(), `omni-cluster-${options.name}-`));
  const port = await freePort();
  const env = { ...process.env, ...options.env };
  delete env.NODE_ENV;
  delete env.LOG_LEVEL;
  let log = '';
  const up = await run(['--data', dataDir, '--port', String(port), '--no-build'], env);
  log += up.output;
  const logs = () => {
    let text = log;
    try {
      const record = JSON.parse(readFileSync(clusterFile(dataDir), 'utf8')) as ClusterRecord;
      for (const s of record.services) text += `\n--- ${s.name} (pid ${s.pid}) ---\n${tail(s.logFile, 40)}`;
    } catch {
      // no services recorded
    }
    return text;
  };
  const writeLog = () => {
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(join(artifacts, `cluster-${options.name}.log`), logs());
  };
  const explain = (err: unknown): never => {
    writeLog();
    const original = err instanceof Error ? err : new Error(String(err));
    const error = new Error(
      `${original.message}\n\n--- the cluster (all of it in tests/.artifacts/cluster-${options.name}.log) ---\n${logs().slice(-6000)}`,
      { cause: original },
    );
    error.stack = `${error.message}\n${(original.stack ?? '')
      .split('\n')
      .filter((l) => /^\s+at /.test(l))
      .join('\n')}`;
    throw error;
  };
  if (up.code !== 0) {
    await run(['--stop', '--data', dataDir], env);
    explain(new Error(`npm run cluster exited with ${up.code}`));
  }
  const endpoints = JSON.parse(readFileSync(endpointsFile(dataDir), 'utf8')) as Endpoints;
  const url = endpoints.gateway;
  mailpitFor.set(url, endpoints.mailpit);
  const admin = {
    email: endpoints.admin.email,
    password: readFileSync(endpoints.admin.passwordFile, 'utf8').trim(),
  };
  const record = () => JSON.parse(readFileSync(clusterFile(dataDir), 'utf8')) as ClusterRecord;
  // A test runner that dies must not leave a cluster behind.
  const orphanGuard = () => {
    try {
      const r = record();
      for (const s of r.services) killPid(s.pid);
    } catch {
      // nothing recorded
    }
  };
  process.once('exit', orphanGuard);

  return {
    url,
    dataDir,
    admin,
    endpoints,
    record,
    serviceDataDir: (service) => join(dataDir, 'services', service),
    output: logs,
    explain,
    async kill9() {
      const services = record().services;
      for (const s of services) killPid(s.pid);
      await eventually(
        () => (services.some((s) => alive(s.pid)) ? undefined : true),
        'the services to die',
        10_000,
        50,
      );
    },
    async restart() {
      // One after another: each rewrites the cluster's record.
      for (const s of record().services) await restartService(dataDir, s.name);
      log += `\n===== services restarted (${new Date().toISOString()}) =====\n`;
    },
    async stop() {
      process.off('exit', orphanGuard);
      writeLog();
      const down = await run(['--stop', '--data', dataDir], env);
      if (down.code !== 0) throw new Error(`npm run cluster -- --stop failed:\n${down.output}`);
      mailpitFor.delete(url);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
