#!/usr/bin/env node
// Builds the production bundles of the shell and the four remotes into frontends/<name>/dist.
//
//   node scripts/build-frontends.mjs            build what changed since its last build
//   node scripts/build-frontends.mjs --force    rebuild everything
//   node scripts/build-frontends.mjs --only shell,marketing
//
// A bundle is skipped when a hash of its inputs (its own sources, the UI kit, the shared rspack
// config, the lockfile) equals the one stored in its dist by the last successful build. Two builds
// run at a time: rspack is multi-threaded and these machines have two cores. Exits non-zero if any
// build fails.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const frontends = path.join(root, 'frontends');
const BUNDLES = ['shell', 'marketing', 'dashboard', 'admin', 'finder'];
const PARALLEL = 2;
const HASH_FILE = '.build-hash';
const IGNORED_DIRS = new Set(['node_modules', 'dist', '.turbo', 'coverage']);

function parseArgs(argv) {
  const force = argv.includes('--force');
  const onlyIndex = argv.indexOf('--only');
  const only = onlyIndex >= 0 ? (argv[onlyIndex + 1] ?? '').split(',').filter(Boolean) : BUNDLES;
  const unknown = only.filter((name) => !BUNDLES.includes(name));
  if (unknown.length > 0) {
    console.error(`Unknown bundle(s): ${unknown.join(', ')}. Known: ${BUNDLES.join(', ')}`);
    process.exit(2);
  }
  return { force, only };
}

function listFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (IGNORED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(full));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

/** Content hash of everything that can change a bundle's output. */
function inputsHash(name) {
  const inputs = [
    ...listFiles(path.join(frontends, name)),
    ...listFiles(path.join(frontends, 'ui')),
    // The API contract the bundles type and parse with (@omni/proto/api).
    ...listFiles(path.join(root, 'proto', 'api')),
    path.join(root, 'proto', 'package.json'),
    path.join(frontends, 'rspack.base.mjs'),
    path.join(frontends, 'rspack.prerender.mjs'),
    path.join(root, 'package-lock.json'),
  ].sort();
  const hash = createHash('sha256');
  for (const file of inputs) {
    if (!existsSync(file)) continue;
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  hash.update(process.version); // a different Node can produce a different bundle
  return hash.digest('hex');
}

function distOf(name) {
  return path.join(frontends, name, 'dist');
}

function isUpToDate(name, hash) {
  const dist = distOf(name);
  const marker = name === 'shell' ? 'index.html' : 'mf-manifest.json';
  const hashFile = path.join(dist, HASH_FILE);
  return (
    existsSync(path.join(dist, marker)) &&
    existsSync(hashFile) &&
    readFileSync(hashFile, 'utf8').trim() === hash
  );
}

const require = createRequire(import.meta.url);
const rspackBin = path.join(path.dirname(require.resolve('@rspack/cli/package.json')), 'bin/rspack.js');

function runBuild(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [rspackBin, 'build', '--mode', 'production'], {
      cwd: path.join(frontends, name),
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => resolve({ ok: code === 0, output, ms: Date.now() - started }));
    child.on('error', (error) => resolve({ ok: false, output: String(error), ms: Date.now() - started }));
  });
}

/**
 * Writes .br and .gz beside every text asset once, at build time, so the gateway serves compressed bytes
 * without compressing on each request (the shell's entry is ~430 KB raw, ~130 KB gzipped).
 */
function precompress(dist) {
  for (const file of readdirSync(dist)) {
    if (!/\.(js|css|html|json|svg|map)$/.test(file) || file.endsWith('.map')) continue;
    const full = path.join(dist, file);
    const content = readFileSync(full);
    if (content.length < 1024) continue;
    writeFileSync(`${full}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${full}.br`,
      brotliCompressSync(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 10 } }),
    );
  }
}

/** JS a visitor downloads at start for the shell (entry chunks named in index.html); all JS for a remote. */
function sizes(name) {
  const dist = distOf(name);
  const jsFiles = readdirSync(dist).filter((file) => file.endsWith('.js'));
  let initial = jsFiles;
  if (name === 'shell') {
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    initial = jsFiles.filter((file) => html.includes(`/${file}"`));
  }
  const measure = (files) =>
    files.reduce(
      (acc, file) => {
        const content = readFileSync(path.join(dist, file));
        return {
          raw: acc.raw + statSync(path.join(dist, file)).size,
          gzip: acc.gzip + gzipSync(content).length,
        };
      },
      { raw: 0, gzip: 0 },
    );
  return { all: measure(jsFiles), initial: measure(initial), files: jsFiles.length };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const { force, only } = parseArgs(process.argv.slice(2));
  const queue = [];
  const results = new Map();
  for (const name of only) {
    const hash = inputsHash(name);
    if (!force && isUpToDate(name, hash)) results.set(name, { status: 'up to date', ms: 0 });
    else queue.push({ name, hash });
  }

  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      console.log(`building ${job.name}…`);
      const result = await runBuild(job.name);
      if (result.ok) {
        precompress(distOf(job.name));
        writeFileSync(path.join(distOf(job.name), HASH_FILE), `${job.hash}\n`);
      } else console.error(`\n✖ ${job.name} failed:\n${result.output.trim()}\n`);
      results.set(job.name, { status: result.ok ? 'built' : 'FAILED', ms: result.ms });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));

  console.log('\nbundle      status        time  all JS: raw / gzip (files)       initial JS: raw / gzip');
  let failed = 0;
  for (const name of only) {
    const { status, ms } = results.get(name);
    if (status === 'FAILED') failed += 1;
    let sizeText = '';
    if (status !== 'FAILED' && existsSync(distOf(name))) {
      const { all, initial, files } = sizes(name);
      sizeText = `${kb(all.raw)} / ${kb(all.gzip)} (${files})`.padEnd(32);
      if (name === 'shell') sizeText += `${kb(initial.raw)} / ${kb(initial.gzip)}`;
    }
    const time = ms ? `${(ms / 1000).toFixed(1)}s` : '-';
    console.log(`${name.padEnd(12)}${status.padEnd(13)}${time.padStart(6)}  ${sizeText}`);
  }
  if (failed > 0) {
    console.error(`\n${failed} bundle(s) failed.`);
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
