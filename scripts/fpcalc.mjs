#!/usr/bin/env node
// Chromaprint's fpcalc 1.5.1 from Debian bookworm (libchromaprint-tools), unpacked into .engines/ — no root and
// nothing installed on the machine. `apt-get download` fetches the .deb files apt would install for
// libchromaprint-tools on this machine (the package and the FFmpeg 5.1 libraries it links, about 42 packages,
// 25 MB), `dpkg-deb -x` unpacks each into one tree, and Omni runs the binary with LD_LIBRARY_PATH pointing at
// the tree's library folder (services/delivery/src/providers/fingerprinter). Idempotent; run by postinstall
// (a failure only warns: `npm start` then reports the fingerprint check unavailable) and by .ci/run.
//   node scripts/fpcalc.mjs            provision when missing
//   node scripts/fpcalc.mjs --check    exit 1 when not provisioned
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '1.5.1';
const root = fileURLToPath(new URL('..', import.meta.url));
const home = resolve(
  process.env.OMNI_ENGINES_DIR?.trim() || join(root, '.engines'),
  `chromaprint-${VERSION}`,
);
const binary = join(home, 'usr', 'bin', 'fpcalc');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

function works() {
  if (!existsSync(binary)) return false;
  const libs = join(home, 'usr', 'lib', 'x86_64-linux-gnu');
  const out = spawnSync(binary, ['-version'], {
    encoding: 'utf8',
    env: { ...process.env, LD_LIBRARY_PATH: libs },
  });
  return out.status === 0 && out.stdout.includes(VERSION);
}

function provision() {
  if (works()) return 'already provisioned';
  // What apt would install here (the simulation needs no root); on a machine that already has some of the
  // FFmpeg libraries, those are not fetched again — the loader finds them in the system's own folders.
  const plan = run('apt-get', ['-s', 'install', '--no-install-recommends', 'libchromaprint-tools']);
  const packages = plan
    .split('\n')
    .filter((line) => line.startsWith('Inst '))
    .map((line) => line.split(' ')[1]);
  if (!packages.includes('libchromaprint-tools')) {
    // Installed system-wide already: unpack just the tool and its library (the rest is on the machine).
    packages.push('libchromaprint-tools', 'libchromaprint1');
  }
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
  if (!works()) throw new Error(`unpacked ${packages.length} packages but ${binary} -version does not run`);
  return `provisioned (${packages.length} Debian packages)`;
}

if (process.argv.includes('--check')) {
  process.exit(works() ? 0 : 1);
}
try {
  console.log(`fpcalc ${VERSION}: ${provision()} in ${home}`);
} catch (err) {
  console.warn(`fpcalc ${VERSION} could not be provisioned: ${err.message}`);
  process.exit(process.argv.includes('--required') ? 1 : 0);
}
