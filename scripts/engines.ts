// `npm run engines -- <command>`: the real engines cluster mode and the real-engine suites use.
//   provision [name…]   download/build every engine (or the named ones) into .engines/; idempotent
//   status              which are provisioned, and why the others are not
//   up --data <dir>     start every provisioned engine with its data under <dir>; writes <dir>/engines.json
//   down --data <dir>   stop the engines that <dir>/engines.json names, by process id
// `.ci/run` provisions; `npm test` starts what is provisioned for the contract suites (scripts/test.mjs).
import { ENGINES } from './engines/index';
import { provisionEngines } from './engines/provision';
import { readRunning, startEngines, stopRunning } from './engines/running';
import { EngineError, type EngineName } from './engines/support';

function option(name: string, fallback?: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
}

async function provision(names: string[]): Promise<number> {
  const began = Date.now();
  const results = await provisionEngines(names, (line) => console.log(`  ${line}`));
  for (const { engine, seconds, error } of results) {
    if (error) console.log(`✖ ${engine.name} ${engine.version} could not be provisioned: ${error}`);
    else
      console.log(
        `✓ ${engine.name} ${engine.version} ${seconds ? `provisioned in ${seconds.toFixed(1)} s` : 'already provisioned'}`,
      );
  }
  const failures = results.filter((r) => r.error).length;
  console.log(
    `engines: ${results.length - failures} of ${results.length} ready in ${((Date.now() - began) / 1000).toFixed(0)} s`,
  );
  return failures;
}

async function main(): Promise<void> {
  const [command = 'status', ...rest] = process.argv.slice(2);
  const names = rest.filter((a) => !a.startsWith('--') && a !== option('--data'));
  if (command === 'provision') {
    process.exitCode = (await provision(names)) ? 1 : 0;
    return;
  }
  if (command === 'status') {
    for (const engine of ENGINES) {
      const missing = engine.missing();
      console.log(`${missing ? '✖' : '✓'} ${engine.name} ${engine.version}${missing ? `: ${missing}` : ''}`);
    }
    return;
  }
  const dataDir = option('--data');
  if (!dataDir) throw new EngineError(`${command} needs --data <dir>`);
  if (command === 'up') {
    const running = await startEngines({
      dataDir,
      only: names.length ? (names as EngineName[]) : undefined,
      log: (line) => console.log(line),
    });
    for (const [name, skipped] of Object.entries(running.skipped)) console.log(`– ${name}: ${skipped}`);
    for (const engine of running.engines)
      console.log(`✓ ${engine.name}: ${Object.values(engine.endpoints).join(', ')}`);
    return;
  }
  if (command === 'down') {
    await stopRunning(readRunning(dataDir));
    console.log('engines stopped');
    return;
  }
  throw new EngineError(`unknown command ${command}: provision, status, up or down`);
}

main().catch((err) => {
  console.error(err instanceof EngineError ? err.message : err);
  process.exit(1);
});
