// `npm run cluster`: Omni as a cluster on one machine. Provisions the real engines (once; later runs reuse
// .engines/), builds the web app and the server when their sources changed, starts Kafka, FerretDB,
// Keycloak, S3, Mailpit and Jaeger, then every service as its own process on the production adapters with
// the gateway on :8080, prints every address and writes them to data/cluster/endpoints.json, and returns.
// `npm run cluster -- --stop` stops everything it started, by process id.
// Options: --data <dir> (default data/cluster), --port <gateway port> (default 8080), --no-build.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ADMIN_EMAIL, clusterDown, clusterUp, endpointsFile } from './cluster/cluster';
import { ENGINES } from './engines/index';
import { provisionEngines } from './engines/provision';
import { EngineError, REPO } from './engines/support';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

const dataDir = option('--data') ?? join(REPO, 'data/cluster');
const port = Number(option('--port') ?? 8080);

async function build(): Promise<void> {
  if (process.argv.includes('--no-build')) return;
  const web = spawnSync(process.execPath, [join(REPO, 'scripts/build-frontends.mjs')], {
    stdio: 'inherit',
    cwd: REPO,
  });
  if (web.status !== 0) throw new EngineError('The web app did not build; see above.');
  const { buildServer } = (await import(join(REPO, 'scripts/build-server.mjs'))) as {
    buildServer: () => Promise<void>;
  };
  await buildServer();
}

async function main(): Promise<void> {
  if (process.argv.includes('--stop')) {
    const stopped = await clusterDown(dataDir);
    console.log(
      stopped
        ? `Stopped the cluster in ${dataDir} (${stopped} processes).`
        : `No cluster was running from ${dataDir}.`,
    );
    return;
  }
  const began = Date.now();
  if (ENGINES.some((e) => e.missing())) {
    console.log('Provisioning the engines (once; later runs reuse .engines/)…');
    const results = await provisionEngines([], (line) => console.log(`  ${line}`));
    for (const r of results)
      if (r.seconds) console.log(`  ${r.engine.name} ${r.engine.version} ready in ${r.seconds.toFixed(0)} s`);
    const failed = results.filter((r) => r.error);
    if (failed.length)
      throw new EngineError(
        failed.map((r) => `${r.engine.name} could not be provisioned: ${r.error}`).join('\n'),
      );
  }
  await build();
  console.log('Starting the engines and the services…');
  const { record, endpoints } = await clusterUp({
    dataDir,
    port,
    log: (line) => console.log(`  ${line}`),
  });
  const width = 10;
  const row = (name: string, value: string) => console.log(`  ${name.padEnd(width)} ${value}`);
  console.log(`\nOmni cluster is up in ${((Date.now() - began) / 1000).toFixed(0)} s.\n`);
  row('gateway', endpoints.gateway);
  for (const key of ['kafka', 'keycloak', 'mongodb', 's3', 'jaeger', 'smtp', 'mailpit'] as const)
    row(key, endpoints[key]);
  row('admin', `${ADMIN_EMAIL} (password in ${endpoints.admin.passwordFile})`);
  console.log(`\n  services  (each its own process; logs in ${join(record.dataDir, 'logs')})`);
  for (const s of record.services)
    row(`  ${s.name}`, `pid ${s.pid}, http :${s.ports.http}, grpc :${s.ports.grpc}`);
  console.log(`\nAddresses: ${endpointsFile(record.dataDir)}\nStop: npm run cluster -- --stop\n`);
}

main().catch((err) => {
  console.error(
    `\nThe cluster could not start: ${err instanceof EngineError ? err.message : (err as Error).stack}\n`,
  );
  process.exit(1);
});
