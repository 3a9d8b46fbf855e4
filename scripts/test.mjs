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
const report = `${root}tests/.artifacts/jest-results.json`;
rmSync(report, { force: true });
console.log('\n▶ jest');
spawnSync(bin('jest'), ['--json', `--outputFile=${report}`, ...jestArgs], { stdio: 'inherit', cwd: root });
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
} catch {
  console.log('✖ jest produced no results');
  failed += 1;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
