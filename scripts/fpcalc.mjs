#!/usr/bin/env node
// The rights check's tools from Debian bookworm, unpacked into .engines/ — no root and nothing installed on the
// machine: Chromaprint's fpcalc 1.5.1 (libchromaprint-tools, with the FFmpeg 5.1 libraries it links: about 42
// packages, 25 MB) and the `flac` command-line tool 1.4.2 (one 166 kB package where libFLAC is already on the
// machine, else also libflac12 and libogg0), which decodes a FLAC master once so it can be fingerprinted at the
// speeds that undo a sped-up re-upload. `apt-get download` fetches the .deb files apt would install for each,
// `dpkg-deb -x` unpacks them into one tree per tool, and Omni runs the binary with LD_LIBRARY_PATH pointing at
// the tree's library folder (services/delivery/src/providers/fingerprinter). Idempotent; run by postinstall
// (a failure only warns: `npm start` then reports the fingerprint check unavailable, or a FLAC master checked
// at its own speed only) and by .ci/run.
//   node scripts/fpcalc.mjs              provision what is missing
//   node scripts/fpcalc.mjs --check      exit 1 when a tool is not provisioned
//   node scripts/fpcalc.mjs --required   exit 1 when a tool could not be provisioned
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// `tree` is the folder under .engines/ that locateFpcalc / locateFlac look for; `alsoUnpack` are the libraries
// to unpack beside the tool when apt finds the tool installed system-wide already (its plan is then empty).
const TOOLS = [
  {
    name: 'fpcalc',
    version: '1.5.1',
    tree: 'chromaprint-1.5.1',
    pkg: 'libchromaprint-tools',
    alsoUnpack: ['libchromaprint1'],
    versionArgs: ['-version'],
  },
  {
    name: 'flac',
    version: '1.4.2',
    tree: 'flac-1.4.2',
    pkg: 'flac',
    alsoUnpack: [],
    versionArgs: ['--version'],
  },
];

const root = fileURLToPath(new URL('..', import.meta.url));
const engines = resolve(process.env.OMNI_ENGINES_DIR?.trim() || join(root, '.engines'));

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

function works(tool, home = join(engines, tool.tree)) {
  const binary = join(home, 'usr', 'bin', tool.name);
  if (!existsSync(binary)) return false;
  const libs = join(home, 'usr', 'lib', 'x86_64-linux-gnu');
  const out = spawnSync(binary, tool.versionArgs, {
    encoding: 'utf8',
    env: { ...process.env, LD_LIBRARY_PATH: libs },
  });
  return out.status === 0 && out.stdout.includes(tool.version);
}

function provision(tool) {
  const home = join(engines, tool.tree);
  if (works(tool)) return 'already provisioned';
  // What apt would install here (the simulation needs no root); on a machine that already has some of the
  // libraries, those are not fetched again — the loader finds them in the system's own folders.
  const plan = run('apt-get', ['-s', 'install', '--no-install-recommends', tool.pkg]);
  const packages = plan
    .split('\n')
    .filter((line) => line.startsWith('Inst '))
    .map((line) => line.split(' ')[1]);
  if (!packages.includes(tool.pkg)) packages.push(tool.pkg, ...tool.alsoUnpack);
  const staging = `${home}.partial`;
  rmSync(staging, { recursive: true, force: true });
  const debs = join(staging, 'debs');
  mkdirSync(debs, { recursive: true });
  run('apt-get', ['download', ...packages], { cwd: debs });
  for (const deb of readdirSync(debs).filter((f) => f.endsWith('.deb'))) {
    run('dpkg-deb', ['-x', join(debs, deb), staging]);
  }
  rmSync(debs, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  renameSync(staging, home);
  if (!works(tool)) throw new Error(`unpacked ${packages.length} packages but ${tool.name} does not run`);
  return `provisioned (${packages.length} Debian packages)`;
}

if (process.argv.includes('--check')) {
  process.exit(TOOLS.every((tool) => works(tool)) ? 0 : 1);
}
let failed = false;
for (const tool of TOOLS) {
  try {
    console.log(`${tool.name} ${tool.version}: ${provision(tool)} in ${join(engines, tool.tree)}`);
  } catch (err) {
    console.warn(`${tool.name} ${tool.version} could not be provisioned: ${err.message}`);
    failed = true;
  }
}
process.exit(failed && process.argv.includes('--required') ? 1 : 0);
