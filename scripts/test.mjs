#!/usr/bin/env node
// `npm test`: the static checks (contracts generated and current, lint, types), the web app build the
// browser tests need, then every jest suite. Ends with the plain line CI reads: "N passed, N failed",
// counting each static check as one test and every jest test.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const jestArgs = process.argv.slice(2);
let passed = 0;
let failed = 0;

function step(name, command, args) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root });
  if (result.status === 0) passed += 1;
  else {
    failed += 1;
    console.log(`✖ ${name} failed`);
  }
  return result.status === 0;
}

const bin = (name) => `${root}node_modules/.bin/${name}`;

// The real engines (Kafka, FerretDB, Keycloak, S3, Mailpit, Jaeger) that are provisioned under .engines/
// (`npm run engines -- provision`; .ci/run does it) run for the whole jest run, and their addresses reach the
// suites as KAFKA_BROKERS, MONGODB_URI, KEYCLOAK_URL, S3_ENDPOINT, SMTP_URL, JAEGER_URL and the like. What
// selects an adapter (EVENT_BUS, DOCUMENT_STORE, …) is left out, so every other suite keeps the embedded
// ones; the OTLP address is passed as JAEGER_OTLP_URL so that no other suite starts exporting traces. An
// engine that is provisioned but does not start is a failure; one not provisioned is said, and its suites
// print SKIPPED.
const engineData = `${root}tests/.artifacts/engines`;
const SELECTORS = ['EVENT_BUS', 'DOCUMENT_STORE', 'OBJECT_STORE', 'IDENTITY_PROVIDER', 'MAIL', 'PAYMENTS'];

function enginesCli(...args) {
  return spawnSync(process.execPath, ['--import', 'tsx', `${root}scripts/engines.ts`, ...args], {
    stdio: 'inherit',
    cwd: root,
  });
}

function startEngines() {
  if (process.env.OMNI_ENGINES === 'off') return { env: {}, all: false };
  if (existsSync(`${engineData}/engines.json`)) enginesCli('down', '--data', engineData);
  rmSync(engineData, { recursive: true, force: true });
  console.log('\n▶ real engines for the contract suites');
  enginesCli('up', '--data', engineData);
  let record;
  try {
    record = JSON.parse(readFileSync(`${engineData}/engines.json`, 'utf8'));
  } catch {
    failed += 1;
    console.log('✖ the engines could not be started (see above)');
    return { env: {}, all: false };
  }
  // CI (.ci/run) provisions every engine: there a missing one is a failure, not a SKIPPED suite.
  const required = process.env.OMNI_ENGINES_REQUIRED === '1';
  for (const [name, reason] of Object.entries(record.skipped ?? {})) {
    if (required) failed += 1;
    console.log(`${required ? '✖' : '⚠'} ${name}: ${reason} Its real-engine suites will print SKIPPED.`);
  }
  for (const [name, reason] of Object.entries(record.failed ?? {})) {
    failed += 1;
    console.log(`✖ ${name} is provisioned but did not start: ${reason}`);
  }
  const env = {};
  for (const engine of record.engines ?? []) {
    passed += 1;
    for (const [key, value] of Object.entries(engine.env)) {
      if (SELECTORS.includes(key)) continue;
      env[key === 'OTEL_EXPORTER_OTLP_ENDPOINT' ? 'JAEGER_OTLP_URL' : key] = value;
    }
  }
  const all = Object.keys(record.skipped ?? {}).length === 0 && Object.keys(record.failed ?? {}).length === 0;
  return { env, all };
}

function stopEngines() {
  if (existsSync(`${engineData}/engines.json`)) enginesCli('down', '--data', engineData);
}

// What the suites need from the machine and npm cannot install: said once, before the run, not as 200
// browser failures after it (README, "Two commands").
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium))
  console.log(
    `\n⚠ No Chromium at ${chromium}: every browser suite will fail. Install it: sudo apt-get install -y chromium (or run .ci/run, which does).`,
  );
if (!existsSync('/usr/sbin/sshd'))
  console.log(
    '\n⚠ No sshd at /usr/sbin/sshd: the SFTP transport suite will print SKIPPED. Install it: sudo apt-get install -y openssh-server',
  );
if (jestArgs.length === 0) {
  step('proto contracts are generated and current', process.execPath, ['scripts/proto-gen.mjs', '--check']);
  step('lint and format (biome)', bin('biome'), ['ci', '.']);
  step('type check (tsc)', 'npm', ['run', '--silent', 'typecheck']);
  step('web app builds', process.execPath, ['scripts/build-frontends.mjs']);
  step('server builds (the one entry, dist/omni/main.cjs)', process.execPath, ['scripts/build-server.mjs']);
}

mkdirSync(`${root}tests/.artifacts`, { recursive: true });
const engines = startEngines();
const report = `${root}tests/.artifacts/jest-results.json`;
rmSync(report, { force: true });
console.log('\n▶ jest');
spawnSync(bin('jest'), ['--json', `--outputFile=${report}`, ...jestArgs], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, ...engines.env },
});
stopEngines();
countJest(report);

// The journeys' second project: the same journeys on `npm run cluster` (real engines, a process per
// service), one at a time (each cluster is a dozen processes on a 2-core machine). Only when every engine
// is provisioned and the whole suite runs (not when jest was given a selection).
if (jestArgs.length === 0 && engines.all) {
  const clusterReport = `${root}tests/.artifacts/jest-results-cluster.json`;
  rmSync(clusterReport, { force: true });
  console.log('\n▶ jest: the journeys on the cluster (OMNI_JOURNEY_TARGET=cluster)');
  spawnSync(bin('jest'), ['--json', `--outputFile=${clusterReport}`, '--maxWorkers=1', 'tests/journeys'], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, OMNI_JOURNEY_TARGET: 'cluster' },
  });
  countJest(clusterReport);
}

function countJest(file) {
  try {
    const results = JSON.parse(readFileSync(file, 'utf8'));
    passed += results.numPassedTests;
    failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
  } catch {
    console.log('✖ jest produced no results');
    failed += 1;
  }
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
